#pragma once
// What a translation keeps as it is: web addresses ("https://…", "www.…"), e-mail addresses,
// emoji, text emoticons (":)", ";-)", "<3") and the @names and #tags of social networks. The
// corpus (Tatoeba sentences) has almost none of them, so a model reads them as unknown pieces
// and invents words for them that derail the rest of the sentence ("tom@example.com" →
// "correom", "I love this song 😀." → "…cada canción de solicuamático…", "See you tomorrow ;)"
// → "Te veo mañana el ámico de Ángego").
// A piece is translated without them and they are put back into its translation where they
// stood: at its start, at its end (before its final punctuation when they stood before the
// source's), or after the word at the same share of the words (app/translate/text_segments.h).

#include <cstddef>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "data/text_span.h"

namespace atento::data {

/// The web addresses, e-mail addresses, @names, #tags, emoticons and runs of emoji in `text`
/// (valid UTF-8), in order and apart. An address is a run without white space whose core
/// (without the brackets, quotes and sentence punctuation around it: "(see https://x.org/a)." →
/// "https://x.org/a") holds "://" after a scheme's letters, starts with "www." and a domain, is
/// name@domain.tld, or is "@" or "#" before a letter and letters, digits and "_" ("@tom_92",
/// "#travel"; "#1" is not); an emoticon is a run that is one alone (":)", ":-(", ";)", ":DD",
/// ":P", "<3", "^_^"); an emoji run is code points with Unicode's Extended_Pictographic or
/// Regional_Indicator property (ICU) and the joiners, variation selectors and skin tones between
/// them.
std::vector<TextSpan> verbatim_spans(std::string_view text);

/// A span left out of the text the model reads, and where it stood.
struct KeptSpan {
  std::string text;
  size_t words_before = 0;         ///< words of the stripped text before it
  bool space_before = false;       ///< white space stood right before it
  bool space_after = false;        ///< white space stood right after it
  bool punctuation_after = false;  ///< only punctuation (no word) followed it in the text
  std::string mark_after;          ///< the punctuation mark right after it ("," of "x.org, then")
};

/// The spans left out of a text, and how many words the rest has.
struct KeptSpans {
  std::vector<KeptSpan> spans;
  /// Words of the stripped text: runs without white space holding a letter or digit.
  size_t words = 0;
  /// Where each run of the text that was kept starts: (offset in the stripped text, offset in
  /// the text), in order.
  std::vector<std::pair<size_t, size_t>> runs;
};

/// The offset in the original text of byte `at` of the stripped text.
size_t original_offset(const KeptSpans& kept, size_t at);

/// A text without its verbatim spans.
struct StrippedText {
  /// The text without the spans and without the white space each leaves doubled or before
  /// punctuation ("Visit https://x.org for" → "Visit for", "song 😀." → "song.").
  std::string text;
  KeptSpans kept;
};

/// `text` (valid UTF-8) without its verbatim_spans, and without the spans `also` (of `text`,
/// apart: quotation marks at a piece's edges, data/quote_marks.h) where they overlap none.
StrippedText strip_verbatim(std::string_view text, const std::vector<TextSpan>& also = {});

/// True when `text` holds a letter or a digit (what a model has words for).
bool has_words(std::string_view text);

/// `translation` (of a stripped text) with its `kept` spans put back: a span before every word
/// of the source at the translation's start; one after every word at its end, before its final
/// punctuation when only punctuation followed the span; any other right before the mark that
/// followed it ("x.org, then") where the translation has that mark (the one at the nearest
/// share of the words), else after the translation's word at the share of the words that stood
/// before it in the source (rounded, never first or last). Spacing around each as it stood in
/// the source.
std::string restore_verbatim(std::string_view translation, const KeptSpans& kept);

/// Text inserted into a translation at byte `at` of it.
struct Insertion {
  size_t at = 0;
  std::string text;
};

/// What restore_verbatim inserts, in the order of `at` (in the order of the spans at one place).
std::vector<Insertion> verbatim_insertions(std::string_view translation, const KeptSpans& kept);

/// Where byte `at` of a translation lies after `insertions` (as verbatim_insertions gives them;
/// text inserted at a byte goes before it).
size_t shifted_offset(size_t at, const std::vector<Insertion>& insertions);

}  // namespace atento::data
