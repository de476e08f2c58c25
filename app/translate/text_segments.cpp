#include "app/translate/text_segments.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "data/letter_case.h"
#include "data/list_marker.h"
#include "data/parenthetical.h"
#include "data/question_form.h"
#include "data/quote_marks.h"
#include "data/sentence_stop.h"
#include "data/source_numbers.h"
#include "data/utf8.h"

namespace atento {
namespace {

/// The piece at `begin` of `text` as the model reads it: where it is written in capitals or in
/// title case, or `text` is written in lower case (a piece alone may be so in any text: '"Why?"
/// asked Tom.'), in sentence case with the words that `tokenizer` knows capitalised (names,
/// acronyms) written so; as it is otherwise.
std::string model_text(const data::Tokenizer& tokenizer, std::string_view text, size_t begin,
                       std::string_view piece, bool text_in_lower_case) {
  if (!text_in_lower_case && !data::is_in_capitals(piece) && !data::is_in_title_case(piece)) {
    return std::string(piece);
  }
  return data::sentence_case(
      piece, [&](const std::string& word) { return tokenizer.encode(word).size(); },
      data::opens_sentence(text, begin));
}

/// True when `piece` is an aside in brackets, whole (data/parenthetical.h).
bool is_aside(std::string_view piece) {
  const auto asides = data::parentheticals(piece, {0, piece.size()});
  return asides.size() == 1 && asides[0].size() == piece.size();
}

/// What is left out of `piece` (of `text`) besides its addresses and emoji, as spans of the
/// piece: the quotation marks at its edges whose partners it does not hold (data/quote_marks.h),
/// the marker of a list item ("- ", "2) ") where the piece opens a sentence with one
/// (data/list_marker.h), and the brackets of a piece that is an `aside` (data/parenthetical.h).
std::vector<data::TextSpan> edge_spans(const data::QuoteMarks& quotes, std::string_view text,
                                       std::string_view piece, bool aside) {
  const size_t begin = static_cast<size_t>(piece.data() - text.data());
  std::vector<data::TextSpan> edges = quotes.at_edges({begin, begin + piece.size()});
  for (data::TextSpan& edge : edges) edge = {edge.begin - begin, edge.end - begin};
  const data::TextSpan marker = data::list_marker(piece);
  if (marker.size() > 0 && data::opens_sentence(text, begin)) edges.push_back(marker);
  if (aside) {  // its brackets
    edges.push_back({0, 1});
    edges.push_back({piece.size() - 1, piece.size()});
  }
  return edges;
}

/// A piece that was tried: its text as the model reads it, its source ids (none for a piece
/// of nothing but addresses and emoji) and what was left out of it.
struct EncodedPiece {
  std::string text;
  std::vector<int64_t> ids;
  data::KeptSpans kept;
  bool capitals = false;  ///< written in capitals (its addresses and emoji aside)
  bool stopped = false;   ///< read with a full stop (or a question mark) added
  std::string ending;     ///< the clause mark it ended with, read as that stop
  bool continues = false;  ///< continues a sentence: read with a capital
};

/// True when the text before byte `end` of `text` leaves a sentence open: it ends with a clause
/// mark, a word (before an aside in brackets, or a piece cut between words), or an aside's ")"
/// that no sentence-ending mark stands before ("Tom (my brother) is").
bool leaves_sentence_open(std::string_view text, size_t end) {
  if (end == 0) return false;
  if (data::clause_ending(text.substr(0, end)) != std::string_view::npos) return true;
  const data::CodePoint last = data::decode_utf8_before(text, end);
  if (!last.valid) return false;
  if (last.value == U')') return !data::opens_sentence(text, end - 1);
  return data::has_words(text.substr(end - last.length, last.length));
}

/// True when the piece at `begin` of `text` continues a sentence on the same line (after a
/// clause mark, an aside or a word: leaves_sentence_open) with a word in lower case or the
/// pronoun "I" ("…, and I left", "…, I can't find it", "(my brother)"), not with a name.
bool continues_sentence(std::string_view text, size_t begin, std::string_view piece) {
  size_t end = begin;
  while (end > 0 && (text[end - 1] == ' ' || text[end - 1] == '\t')) --end;
  if (!leaves_sentence_open(text, end) || piece.empty()) return false;
  if (piece[0] == 'I' && (piece.size() == 1 || !data::has_letters(piece.substr(1, 1)))) {
    return true;
  }
  return data::capitalise_first_letter(piece) != piece;
}

/// `piece` (its text as the model reads it, with letters) read as a sentence, as the corpus'
/// sentences are written: a clause mark at its end read as a full stop, a full stop added where
/// it has no final punctuation (a question mark where it has none and asks a question, unless it
/// is an aside: data/question_form.h), and its first letter capitalised where it continues a
/// sentence.
void read_as_sentence(EncodedPiece& piece, std::string_view text, size_t begin, bool aside) {
  const size_t mark = data::clause_ending(piece.text);
  if (mark != std::string_view::npos) {
    piece.ending = piece.text.substr(mark);
    piece.text.erase(mark);
  }
  piece.stopped = data::lacks_final_stop(piece.text);
  if (piece.stopped) {
    piece.text += piece.ending.empty() && !aside && data::reads_as_question(piece.text) ? '?' : '.';
  }
  piece.continues = continues_sentence(text, begin, piece.text);
  if (piece.continues) piece.text = data::capitalise_first_letter(piece.text);
}

/// A piece's translation as its own: with its source's numbers (data/source_numbers.h), the
/// clause mark or no mark it ended with, in lower case where it continues a sentence.
std::string own_form(const SegmentedText& segmented, size_t i, const std::string& translation) {
  const std::string& ending = segmented.endings[i];
  const std::string numbered = data::with_source_numbers(segmented.texts[i], translation);
  std::string own =
      segmented.stopped[i] ? data::without_added_stop(numbered, ending) : numbered + ending;
  return segmented.continues[i] ? data::lower_case_first_letter(own) : own;
}

}  // namespace

Segmenter::Segmenter(const std::string& language, int64_t long_sentence_tokens)
    : splitter(language), long_sentence_tokens(long_sentence_tokens) {}

Segmenter::Segmenter(const Config& config)
    : Segmenter(config.data.source_lang, config.translate.long_sentence_tokens) {}

Segmenter* segmenter_for(std::optional<Segmenter>& held, const Config& config) {
  if (!config.translate.split_sentences) return nullptr;
  if (!held) held.emplace(config);
  return &*held;
}

SegmentedText segment_text(const data::Vocabularies& vocab, std::string_view text,
                           Segmenter* segmenter) {
  // The ids of every piece that was tried, by its offset in `text`: a piece that fits is
  // encoded once.
  std::map<std::pair<size_t, size_t>, EncodedPiece> encoded;
  const bool in_lower_case = data::is_in_lower_case(text);
  // translate.long_sentence_tokens is checked non-negative with the configuration.
  const size_t long_tokens = segmenter ? static_cast<size_t>(segmenter->long_sentence_tokens) : 0;
  const data::QuoteMarks quotes(text);
  auto measure = [&](std::string_view piece) {
    bool truncated = false;
    const size_t begin = static_cast<size_t>(piece.data() - text.data());
    const bool aside = is_aside(piece);
    data::StrippedText stripped =
        data::strip_verbatim(piece, edge_spans(quotes, text, piece, aside));
    EncodedPiece tried;
    tried.text = model_text(vocab.src(), text, begin, stripped.text, in_lower_case);
    tried.kept = std::move(stripped.kept);
    tried.capitals = data::is_in_capitals(stripped.text);
    if (data::has_letters(tried.text)) {
      read_as_sentence(tried, text, begin, aside);
      tried.ids = vocab.encode_source(tried.text, &truncated);
    }
    const size_t tokens = tried.ids.size();
    encoded[{begin, piece.size()}] = std::move(tried);
    if (truncated) return data::PieceLength::kTooLong;
    return long_tokens > 0 && tokens > long_tokens ? data::PieceLength::kLong
                                                   : data::PieceLength::kShort;
  };
  const std::vector<data::Segment> pieces =
      segmenter ? data::segment_text(segmenter->splitter, text, measure)
                : data::split_to_fit(text, {0, text.size()}, measure);
  SegmentedText out;
  size_t previous_end = 0;
  bool copied = false;  // a piece with nothing to translate was seen
  for (const data::Segment& piece : pieces) {
    auto found = encoded.find({piece.span.begin, piece.span.size()});
    if (found == encoded.end()) throw std::logic_error("segment_text: a piece was never encoded");
    EncodedPiece& encoded_piece = found->second;
    if (encoded_piece.ids.empty()) {  // nothing to translate: copied, in a gap or around
      copied = true;
      continue;
    }
    if (out.sources.empty()) out.lead = text.substr(0, piece.span.begin);
    out.gaps.push_back(out.sources.empty() ? std::string()
                                           : std::string(text.substr(
                                                 previous_end, piece.span.begin - previous_end)));
    out.sources.push_back(std::move(encoded_piece.ids));
    out.texts.push_back(std::move(encoded_piece.text));
    out.kept.push_back(std::move(encoded_piece.kept));
    out.capitals.push_back(encoded_piece.capitals);
    out.stopped.push_back(encoded_piece.stopped);
    out.endings.push_back(std::move(encoded_piece.ending));
    out.continues.push_back(encoded_piece.continues);
    out.spans.push_back(piece.span);
    out.cut += piece.too_long ? 1 : 0;
    previous_end = piece.span.end;
  }
  if (!out.sources.empty()) {
    out.trail = text.substr(previous_end);
  } else if (copied) {
    out.trail = text;
  }
  return out;
}

std::string join_translations(const SegmentedText& segmented,
                              const std::vector<std::string>& translations,
                              std::vector<data::TextSpan>* placed) {
  if (translations.size() != segmented.sources.size()) {
    throw std::logic_error("join_translations: one translation per piece expected");
  }
  std::string text = segmented.lead;
  for (size_t i = 0; i < translations.size(); ++i) {
    // A piece translated to nothing leaves no doubled spacing behind.
    if (!text.empty() && !translations[i].empty()) text += segmented.gaps[i];
    const size_t begin = text.size();
    const std::string own = own_form(segmented, i, translations[i]);
    const std::string cased = segmented.capitals[i] ? data::upper_case(own) : own;
    text +=
        segmented.kept[i].spans.empty() ? cased : data::restore_verbatim(cased, segmented.kept[i]);
    if (placed != nullptr) placed->push_back({begin, text.size()});
  }
  return text + segmented.trail;
}

std::string cut_warning(int64_t cut, int64_t src_len) {
  if (cut == 0) return "";
  return std::to_string(cut) +
         " run(s) of text without a space longer than the model's " + std::to_string(src_len) +
         " source tokens; cut";
}

}  // namespace atento
