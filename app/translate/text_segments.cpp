#include "app/translate/text_segments.h"

#include <algorithm>
#include <map>
#include <stdexcept>
#include <utility>

#include "data/letter_case.h"

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
    if (tried.kept.spans.empty() || data::has_words(tried.text)) {
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
  // The first and the end of the pieces of addresses and emoji alone since the last piece
  // translated (npos: none).
  size_t copied_begin = std::string_view::npos, copied_end = 0;
  for (const data::Segment& piece : pieces) {
    auto found = encoded.find({piece.span.begin, piece.span.size()});
    if (found == encoded.end()) throw std::logic_error("segment_text: a piece was never encoded");
    EncodedPiece& encoded_piece = found->second;
    if (encoded_piece.ids.empty()) {  // no source token: its text joins the gap
      if (!encoded_piece.kept.spans.empty()) {
        copied_begin = std::min(copied_begin, piece.span.begin);
        copied_end = piece.span.end;
      }
      continue;
    }
    if (out.sources.empty() && copied_begin != std::string_view::npos) {
      out.lead = text.substr(copied_begin, piece.span.begin - copied_begin);
    }
    copied_begin = std::string_view::npos;
    out.gaps.push_back(out.sources.empty() ? std::string()
                                           : std::string(text.substr(
                                                 previous_end, piece.span.begin - previous_end)));
    out.sources.push_back(std::move(encoded_piece.ids));
    out.texts.push_back(std::move(encoded_piece.text));
    out.kept.push_back(std::move(encoded_piece.kept));
    out.capitals.push_back(encoded_piece.capitals);
    out.spans.push_back(piece.span);
    out.cut += piece.too_long ? 1 : 0;
    previous_end = piece.span.end;
  }
  if (copied_begin != std::string_view::npos) {
    const size_t from = out.sources.empty() ? copied_begin : previous_end;
    out.trail = text.substr(from, copied_end - from);
  }
  return out;
}

std::string join_translations(const SegmentedText& segmented,
                              const std::vector<std::string>& translations,
                              std::vector<size_t>* offsets) {
  if (translations.size() != segmented.sources.size()) {
    throw std::logic_error("join_translations: one translation per piece expected");
  }
  std::string text = segmented.lead;
  for (size_t i = 0; i < translations.size(); ++i) {
    // A piece translated to nothing leaves no doubled spacing behind.
    if (!text.empty() && !translations[i].empty()) text += segmented.gaps[i];
    if (offsets != nullptr) offsets->push_back(text.size());
    const std::string cased =
        segmented.capitals[i] ? data::upper_case(translations[i]) : translations[i];
    text +=
        segmented.kept[i].spans.empty() ? cased : data::restore_verbatim(cased, segmented.kept[i]);
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
