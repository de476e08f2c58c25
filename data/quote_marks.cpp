#include "data/quote_marks.h"

#include <algorithm>

#include "data/utf8.h"

namespace atento::data {

QuoteMarks::QuoteMarks(std::string_view text) : text_(text) {
  size_t straight = 0;  // '"' seen so far
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    const TextSpan span{i, i + cp.length};
    if (cp.value == U'"') {
      marks_.push_back({span, straight++ % 2 == 0});
    } else if (cp.value == U'\u201C' || cp.value == U'\u201E' || cp.value == U'\u00AB') {
      marks_.push_back({span, true});
    } else if (cp.value == U'\u201D' || cp.value == U'\u00BB') {
      marks_.push_back({span, false});
    }
    i += cp.length;
  }
}

std::vector<TextSpan> QuoteMarks::at_edges(TextSpan piece) const {
  size_t begin = piece.begin, end = piece.end;
  while (begin < end && is_ascii_white_space(text_[begin])) ++begin;
  while (end > begin && is_ascii_white_space(text_[end - 1])) --end;
  auto first = std::lower_bound(marks_.begin(), marks_.end(), begin,
                                [](const Mark& m, size_t at) { return m.span.begin < at; });
  auto last = std::lower_bound(first, marks_.end(), end,
                               [](const Mark& m, size_t at) { return m.span.begin < at; });
  if (first == last) return {};
  // The piece's marks paired inside it: a closing mark with the latest opening one unpaired.
  const auto n = static_cast<size_t>(last - first);
  std::vector<size_t> partner(n, n), open;
  for (size_t k = 0; k < n; ++k) {
    if (first[k].opens) {
      open.push_back(k);
    } else if (!open.empty()) {
      partner[k] = open.back();
      partner[open.back()] = k;
      open.pop_back();
    }
  }
  const bool opens_piece = first[0].span.begin == begin && first[0].opens;
  const bool closes_piece = first[n - 1].span.end == end && !first[n - 1].opens;
  const bool encloses = opens_piece && closes_piece && n > 1 && partner[0] == n - 1;
  std::vector<TextSpan> edges;
  if (opens_piece && (partner[0] == n || encloses)) edges.push_back(first[0].span);
  if (closes_piece && (partner[n - 1] == n || encloses)) edges.push_back(first[n - 1].span);
  return edges;
}

}  // namespace atento::data
