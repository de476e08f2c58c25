#pragma once
// A span of bytes of a text: what segmentation, verbatim spans and tag placement point at.

#include <cstddef>
#include <string_view>
#include <vector>

namespace atento::data {

/// Bytes [begin, end) of a text.
struct TextSpan {
  size_t begin = 0;
  size_t end = 0;
  size_t size() const { return end - begin; }
};

/// True for ASCII white space: space, tab, line feed, carriage return, form feed, vertical tab.
inline bool is_ascii_white_space(char c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v';
}

/// The words of `text`: its runs of bytes between ASCII white space, in order.
std::vector<TextSpan> text_words(std::string_view text);

}  // namespace atento::data
