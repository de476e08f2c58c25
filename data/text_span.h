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

/// The words of `text`: its runs of bytes between ASCII white space, in order.
std::vector<TextSpan> text_words(std::string_view text);

}  // namespace atento::data
