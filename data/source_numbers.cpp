#include "data/source_numbers.h"

#include <unicode/uchar.h>

#include <algorithm>
#include <cctype>
#include <vector>

#include "data/text_span.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

/// True when a letter (of any script) ends just before byte `begin` of `text` or starts at `end`.
bool letter_touches(std::string_view text, size_t begin, size_t end) {
  auto is_letter_cp = [](const CodePoint& cp) {
    return cp.valid && u_isalpha(static_cast<UChar32>(cp.value));
  };
  return (begin > 0 && is_letter_cp(decode_utf8_before(text, begin))) ||
         (end < text.size() && is_letter_cp(decode_utf8(text, end)));
}

struct Number {
  TextSpan span;
  /// Its digits, with "." for each separator: what two numbers are compared by ("34,000" and
  /// "34.000" are the same, "3.5" and "35" are not).
  std::string digits;
};

/// The numbers of `text`, in order.
std::vector<Number> numbers(std::string_view text) {
  std::vector<Number> out;
  for (size_t i = 0; i < text.size();) {
    if (!is_digit(text[i])) {
      ++i;
      continue;
    }
    size_t end = i;
    std::string digits;
    while (end < text.size()) {
      if (is_digit(text[end])) {
        digits += text[end++];
      } else if ((text[end] == ',' || text[end] == '.') && end + 1 < text.size() &&
                 is_digit(text[end + 1])) {
        digits += '.';  // either notation's separator
        ++end;
      } else {
        break;
      }
    }
    if (!letter_touches(text, i, end)) out.push_back({{i, end}, digits});
    i = end;
  }
  return out;
}

/// The numbers of `of` whose digits `other` does not hold (as many times), in order.
std::vector<Number> unmatched(std::vector<Number> of, const std::vector<Number>& other) {
  std::vector<std::string> pool;
  for (const Number& n : other) pool.push_back(n.digits);
  std::vector<Number> out;
  for (Number& n : of) {
    const auto found = std::find(pool.begin(), pool.end(), n.digits);
    if (found != pool.end()) {
      pool.erase(found);
    } else {
      out.push_back(std::move(n));
    }
  }
  return out;
}

/// An English number in Spanish notation: its "," and "." swapped ("34,000.5" → "34.000,5").
std::string spanish_notation(std::string_view number) {
  std::string out(number);
  for (char& c : out) c = c == ',' ? '.' : c == '.' ? ',' : c;
  return out;
}

}  // namespace

std::string with_source_numbers(std::string_view source, std::string_view translation) {
  const std::vector<Number> source_numbers = numbers(source), own = numbers(translation);
  const std::vector<Number> missing = unmatched(source_numbers, own);
  const std::vector<Number> invented = unmatched(own, source_numbers);
  if (missing.empty() || missing.size() != invented.size()) return std::string(translation);
  std::string out;
  size_t from = 0;
  for (size_t k = 0; k < invented.size(); ++k) {
    const TextSpan span = invented[k].span;
    out.append(translation, from, span.begin - from);
    out += spanish_notation(source.substr(missing[k].span.begin, missing[k].span.size()));
    from = span.end;
  }
  out.append(translation, from, std::string_view::npos);
  return out;
}

}  // namespace atento::data
