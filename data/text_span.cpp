#include "data/text_span.h"

namespace atento::data {

std::vector<TextSpan> text_words(std::string_view text) {
  auto blank = [](char c) {
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
  };
  std::vector<TextSpan> words;
  size_t i = 0;
  while (i < text.size()) {
    while (i < text.size() && blank(text[i])) ++i;
    if (i == text.size()) break;
    const size_t begin = i;
    while (i < text.size() && !blank(text[i])) ++i;
    words.push_back({begin, i});
  }
  return words;
}

}  // namespace atento::data
