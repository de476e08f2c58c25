#include "app/translate/text_segments.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "data/letter_case.h"
#include "data/sentence_stop.h"

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

/// A piece that was tried: its text as the model reads it, its source ids (none for a piece
/// of nothing but addresses and emoji) and what was left out of it.
struct EncodedPiece {
  std::string text;
  std::vector<int64_t> ids;
  data::KeptSpans kept;
  bool capitals = false;  ///< written in capitals (its addresses and emoji aside)
  bool stopped = false;   ///< read with a full stop added
};

}  // namespace

SegmentedText segment_text(const data::Vocabularies& vocab, std::string_view text,
                           data::SentenceSplitter* splitter) {
  // The ids of every piece that was tried, by its offset in `text`: a piece that fits is
  // encoded once.
  std::map<std::pair<size_t, size_t>, EncodedPiece> encoded;
  const bool in_lower_case = data::is_in_lower_case(text);
  auto fits = [&](std::string_view piece) {
    bool truncated = false;
    const size_t begin = static_cast<size_t>(piece.data() - text.data());
    data::StrippedText stripped = data::strip_verbatim(piece);
    EncodedPiece tried{model_text(vocab.src(), text, begin, stripped.text, in_lower_case),
                       {},
                       std::move(stripped.kept),
                       data::is_in_capitals(stripped.text)};
    if (data::has_letters(tried.text)) {
      tried.stopped = data::lacks_final_stop(tried.text);
      if (tried.stopped) tried.text += '.';
      tried.ids = vocab.encode_source(tried.text, &truncated);
    }
    encoded[{begin, piece.size()}] = std::move(tried);
    return !truncated;
  };
  const std::vector<data::Segment> pieces = splitter
                                                ? data::segment_text(*splitter, text, fits)
                                                : data::split_to_fit(text, {0, text.size()}, fits);
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
    const std::string unstopped =
        segmented.stopped[i] ? data::without_added_stop(translations[i]) : translations[i];
    const std::string cased = segmented.capitals[i] ? data::upper_case(unstopped) : unstopped;
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
