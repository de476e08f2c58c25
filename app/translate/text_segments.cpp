#include "app/translate/text_segments.h"

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
                       size_t size, bool text_in_lower_case) {
  const std::string_view piece = text.substr(begin, size);
  if (!text_in_lower_case && !data::is_in_capitals(piece) && !data::is_in_title_case(piece)) {
    return std::string(piece);
  }
  return data::sentence_case(
      piece, [&](const std::string& word) { return tokenizer.encode(word).size(); },
      data::opens_sentence(text, begin));
}

/// A piece that was tried: its text as the model reads it and its source ids.
struct EncodedPiece {
  std::string text;
  std::vector<int64_t> ids;
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
    EncodedPiece tried{model_text(vocab.src(), text, begin, piece.size(), in_lower_case), {}};
    tried.ids = vocab.encode_source(tried.text, &truncated);
    encoded[{begin, piece.size()}] = std::move(tried);
    return !truncated;
  };
  const std::vector<data::Segment> pieces = splitter
                                                ? data::segment_text(*splitter, text, fits)
                                                : data::split_to_fit(text, {0, text.size()}, fits);
  SegmentedText out;
  size_t previous_end = 0;
  for (const data::Segment& piece : pieces) {
    auto found = encoded.find({piece.span.begin, piece.span.size()});
    if (found == encoded.end()) throw std::logic_error("segment_text: a piece was never encoded");
    if (found->second.ids.empty()) continue;  // no source token: its text joins the gap
    out.gaps.push_back(out.sources.empty() ? std::string()
                                           : std::string(text.substr(
                                                 previous_end, piece.span.begin - previous_end)));
    out.sources.push_back(std::move(found->second.ids));
    out.texts.push_back(std::move(found->second.text));
    out.capitals.push_back(data::is_in_capitals(text.substr(piece.span.begin, piece.span.size())));
    out.spans.push_back(piece.span);
    out.cut += piece.too_long ? 1 : 0;
    previous_end = piece.span.end;
  }
  return out;
}

std::string join_translations(const SegmentedText& segmented,
                              const std::vector<std::string>& translations,
                              std::vector<size_t>* offsets) {
  if (translations.size() != segmented.sources.size()) {
    throw std::logic_error("join_translations: one translation per piece expected");
  }
  std::string text;
  for (size_t i = 0; i < translations.size(); ++i) {
    // A piece translated to nothing leaves no doubled spacing behind.
    if (!text.empty() && !translations[i].empty()) text += segmented.gaps[i];
    if (offsets != nullptr) offsets->push_back(text.size());
    text += segmented.capitals[i] ? data::upper_case(translations[i]) : translations[i];
  }
  return text;
}

std::string cut_warning(int64_t cut, int64_t src_len) {
  if (cut == 0) return "";
  return std::to_string(cut) +
         " run(s) of text without a space longer than the model's " + std::to_string(src_len) +
         " source tokens; cut";
}

}  // namespace atento
