#include "data/parenthetical.h"

#include <unicode/uchar.h>

#include <cctype>

#include "data/list_marker.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

/// True when `text` holds a run of two letters or more.
bool has_word(std::string_view text) {
  size_t run = 0;
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    run = cp.valid && u_isalpha(static_cast<UChar32>(cp.value)) ? run + 1 : 0;
    if (run >= 2) return true;
    i += cp.length;
  }
  return false;
}

/// True when a "(" may open an aside at `at` of `span`: at its start, or after white space or a
/// quote.
bool may_open(std::string_view text, TextSpan span, size_t at) {
  if (at == span.begin) return true;
  const char before = text[at - 1];
  return is_ascii_white_space(before) || before == '"' || before == '\'';
}

/// True when a ")" at `at` of `span` may close an aside: before its end, white space or ASCII
/// punctuation other than a bracket or a word's characters.
bool may_close(std::string_view text, TextSpan span, size_t at) {
  if (at + 1 == span.end) return true;
  const char after = text[at + 1];
  if (is_ascii_white_space(after)) return true;
  return after > 0 && std::ispunct(static_cast<unsigned char>(after)) && after != '(' &&
         after != ')' && after != '_';
}

}  // namespace

std::vector<TextSpan> parentheticals(std::string_view text, TextSpan span) {
  std::vector<TextSpan> out;
  size_t depth = 0, open = 0;
  for (size_t i = span.begin; i < span.end; ++i) {
    if (text[i] == '(') {
      if (depth == 0) open = i;
      ++depth;
    } else if (text[i] == ')') {
      if (depth == 0) return {};  // a ")" that no "(" opened: brackets that do not pair
      if (--depth > 0) continue;
      const TextSpan aside{open, i + 1};
      const bool enumerator = open == span.begin &&
                              list_marker(text.substr(span.begin, span.size())).end == aside.size();
      if (may_open(text, span, open) && may_close(text, span, i) && !enumerator &&
          has_word(text.substr(open + 1, i - open - 1))) {
        out.push_back(aside);
      }
    }
  }
  return depth == 0 ? out : std::vector<TextSpan>{};
}

}  // namespace atento::data
