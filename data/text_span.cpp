#include "data/text_span.h"

namespace atento::data {

std::vector<TextSpan> text_words(std::string_view text) {
  std::vector<TextSpan> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && is_ascii_white_space(text[i])) ++i;
    if (i == text.size()) break;
    const size_t begin = i;
    while (i < text.size() && !is_ascii_white_space(text[i])) ++i;
    words.push_back({begin, i});
  }
  return words;
}

}  // namespace atento::data
