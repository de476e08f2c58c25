#include "data/list_marker.h"

#include <algorithm>
#include <array>
#include <cctype>

#include "data/utf8.h"

namespace atento::data {
namespace {

bool is_space_at(std::string_view text, size_t at) {
  return at < text.size() && is_ascii_white_space(text[at]);
}

/// Bytes of ASCII letters from `at` of `text`.
size_t letters_from(std::string_view text, size_t at) {
  size_t end = at;
  while (end < text.size() && std::isalpha(static_cast<unsigned char>(text[end]))) ++end;
  return end - at;
}

/// True when `word` is a roman numeral of one case ("iv", "XII"); their order is not checked.
bool is_roman(std::string_view word) {
  const std::string_view lower = "ivxlc", upper = "IVXLC";
  auto all_in = [&](std::string_view set) {
    return std::all_of(word.begin(), word.end(),
                       [&](char c) { return set.find(c) != std::string_view::npos; });
  };
  return !word.empty() && (all_in(lower) || all_in(upper));
}

/// The end of an enumerator's label at `at` ("1", "1.2", "a", "iv"), or `at` where there is none.
size_t label_end(std::string_view text, size_t at) {
  size_t end = at;
  for (int part = 0; part < 4; ++part) {  // "1", "1.2", up to "1.2.3.4"
    size_t digits = end;
    while (digits < text.size() && digits - end < 3 &&
           std::isdigit(static_cast<unsigned char>(text[digits]))) {
      ++digits;
    }
    if (digits == end) break;
    end = digits;
    if (end + 1 >= text.size() || text[end] != '.' ||
        !std::isdigit(static_cast<unsigned char>(text[end + 1]))) {
      return end;
    }
    ++end;
  }
  if (end > at) return end;
  const size_t letters = letters_from(text, at);
  const std::string_view word = text.substr(at, letters);
  return letters == 1 || (letters <= 4 && is_roman(word)) ? at + letters : at;
}

/// The end of an enumerator at `at` ("1.", "2)", "(a)", "iv."), or `at` where there is none.
size_t enumerator_end(std::string_view text, size_t at) {
  const bool bracketed = at < text.size() && text[at] == '(';
  const size_t label = at + (bracketed ? 1 : 0);
  const size_t end = label_end(text, label);
  if (end == label || end >= text.size()) return at;
  const char close = text[end];
  if (close != ')' && !(close == '.' && !bracketed)) return at;
  if (close == '.' && std::isalpha(static_cast<unsigned char>(text[label]))) {
    // "J. Smith" is an initial: a capital alone with a full stop is no marker ("II." is).
    const std::string_view word = text.substr(label, end - label);
    if (std::isupper(static_cast<unsigned char>(word[0])) && word.size() == 1) return at;
  }
  // At the end of the text: an enumerator that sentence segmentation cut from its item ("iv.").
  return end + 1 == text.size() || is_space_at(text, end + 1) ? end + 1 : at;
}

/// The end of a mark at `at` that a white space must follow: ">" runs, "#" runs, "-", "--", "*",
/// "+", "[ ]", "[x]"; or `at`.
size_t ascii_mark_end(std::string_view text, size_t at) {
  static constexpr std::array<std::string_view, 7> kMarks = {"--",  "-",   "*",  "+",
                                                             "[ ]", "[x]", "[X]"};
  for (const char repeated : {'>', '#'}) {
    size_t end = at;
    while (end < text.size() && text[end] == repeated && end - at < 6) ++end;
    if (end > at) return is_space_at(text, end) || repeated == '>' ? end : at;
  }
  for (const std::string_view mark : kMarks) {
    if (text.substr(at, mark.size()) == mark && is_space_at(text, at + mark.size())) {
      return at + mark.size();
    }
  }
  return at;
}

/// The end of a bullet or dash character at `at`, or `at`.
size_t bullet_end(std::string_view text, size_t at) {
  if (at >= text.size()) return at;
  const CodePoint cp = decode_utf8(text, at);
  static constexpr std::array<char32_t, 14> kBullets = {
      U'\u2022', U'\u25E6', U'\u2023', U'\u25AA', U'\u25CF', U'\u25CB', U'\u25A0',
      U'\u25A1', U'\u25BA', U'\u25B8', U'\u00B7', U'\u2013', U'\u2014', U'\u2043'};
  const bool bullet =
      cp.valid && std::find(kBullets.begin(), kBullets.end(), cp.value) != kBullets.end();
  return bullet ? at + cp.length : at;
}

}  // namespace

TextSpan list_marker(std::string_view text) {
  size_t begin = 0;
  while (is_space_at(text, begin)) ++begin;
  size_t end = begin;
  for (int part = 0; part < 4; ++part) {  // "> - [ ] ", "## 1. "
    size_t at = end;
    while (part > 0 && is_space_at(text, at)) ++at;
    size_t next = ascii_mark_end(text, at);
    if (next == at) next = bullet_end(text, at);
    if (next == at) next = enumerator_end(text, at);
    if (next == at) break;
    end = next;
  }
  return end == begin ? TextSpan{} : TextSpan{begin, end};
}

}  // namespace atento::data
