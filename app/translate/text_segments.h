#pragma once
// A text (a line of a file, a request string) as what the model translates: its sentences,
// each split further at its clauses where it is longer than the sentences the model learned
// from or than its source length (data/segmentation.h), encoded; and back: the pieces' translations
// joined with the text's own spacing. The one place where atento-translate, atento-eval and
// atento-serve turn real text into model sources, so that the same text gives the same translation
// through each of them.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "app/common/config.h"
#include "data/segmentation.h"
#include "data/tokenizer.h"
#include "data/verbatim_spans.h"

namespace atento {

/// How texts are cut into pieces: into sentences by `splitter`, and a sentence longer than
/// `long_sentence_tokens` source tokens (0: none) further at its clause boundaries.
struct Segmenter {
  Segmenter(const std::string& language, int64_t long_sentence_tokens);
  /// For `config`'s source language and translate.long_sentence_tokens.
  explicit Segmenter(const Config& config);
  data::SentenceSplitter splitter;
  int64_t long_sentence_tokens = 0;
};

/// The segmenter that `config`'s translate.split_sentences asks for, made in `held` on first use
/// (ICU's rules are loaded once per holder); nullptr when it is off.
Segmenter* segmenter_for(std::optional<Segmenter>& held, const Config& config);

/// A text as model sources.
struct SegmentedText {
  std::vector<std::vector<int64_t>> sources;  ///< one per piece, in order (never empty)
  /// Each piece's text as the model reads it: a piece written in capitals in sentence case,
  /// with the words the source tokenizer knows capitalised written so (data/letter_case.h).
  std::vector<std::string> texts;
  /// Pieces written in capitals (data/letter_case.h): their translations are written so too.
  std::vector<bool> capitals;
  /// Pieces without final punctuation, read with a full stop added (data/sentence_stop.h):
  /// their translations lose it again. One that asks a question ("where is the station") is read
  /// with a question mark (data/question_form.h): its translation keeps the "¿…?" that Spanish
  /// needs to ask it.
  std::vector<bool> stopped;
  /// The clause mark each piece ends with where it was cut from its sentence after one (",",
  /// ";", ":", " —"; data::clause_ending), else "": read as a full stop, which its translation
  /// turns back into the mark.
  std::vector<std::string> endings;
  /// Pieces that continue a sentence with a word in lower case or the pronoun "I" (a clause cut
  /// after a comma): read with a capital, as the sentences the model learned from open; their
  /// translations open in lower case.
  std::vector<bool> continues;
  /// Each piece's addresses and emoji (data/verbatim_spans.h), the quotation marks at its
  /// edges whose partners are not in it (data/quote_marks.h) and the list marker it opens with
  /// (data/list_marker.h): left out of its text and put back into its translation.
  std::vector<data::KeptSpans> kept;
  std::vector<data::TextSpan> spans;          ///< each piece's bytes in the text
  /// gaps[i]: the text's bytes between piece i − 1 and piece i (gaps[0] is empty): the spacing
  /// the translations are joined with.
  std::vector<std::string> gaps;
  /// The text before the first piece translated and after the last (white space, and pieces with
  /// nothing to translate: addresses and emoji, numbers, symbols), copied as they are; a text
  /// without a piece to translate is all trail when it has such pieces, else "".
  std::string lead, trail;
  /// Pieces cut to the source length: single runs of text longer than it (a long URL, say).
  int64_t cut = 0;
};

/// Segments and encodes `text` (valid UTF-8) with `vocab`'s source tokenizer: with a
/// `segmenter`, sentence by sentence, a sentence longer than its long_sentence_tokens split at
/// its clause boundaries; without, as one piece. Either way a piece longer than the source
/// length is split at clause boundaries, then between words; only a single run longer than it
/// is cut (counted in `cut`). A clause is read as a sentence (endings, continues). A piece without
/// a letter (numbers, prices, dates, punctuation, symbols: "42", "$9.99", "10:30", "|") is copied
/// as it is, and a text of none has no sources. A piece written in capitals is read in sentence
/// case, its names and acronyms as the source tokenizer knows them; a piece without final
/// punctuation is read with a full stop (data/sentence_stop.h), or a question mark where its
/// words ask a question (data/question_form.h). Addresses and emoji are left out of
/// every piece (data::strip_verbatim), and so are the quotation marks at its edges whose
/// partners it does not hold (data/quote_marks.h) and the list marker that opens a piece that
/// opens a sentence (data/list_marker.h); a piece of nothing else is copied as it is.
SegmentedText segment_text(const data::Vocabularies& vocab, std::string_view text,
                           Segmenter* segmenter);

/// The pieces' translations (one per source of `segmented`; those of pieces read with a stop
/// added without it or with their clause mark in its place, those of pieces that continue a
/// sentence opening in lower case, those of pieces in capitals upper-cased, each with its
/// addresses and emoji put back) joined with its gaps, between its
/// lead and trail; `placed` (optional) receives the bytes of each translation in the result.
std::string join_translations(const SegmentedText& segmented,
                              const std::vector<std::string>& translations,
                              std::vector<data::TextSpan>* placed = nullptr);

/// The message for `cut` runs of text cut to a source length of `src_len` tokens ("" for none),
/// as atento-translate's warning and atento-serve's "warnings" field say it.
std::string cut_warning(int64_t cut, int64_t src_len);

}  // namespace atento
