#include "data/sentence_stop.h"

#include <unicode/uchar.h>

#include "data/letter_case.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

/// White space, a closing quote or a closing bracket: what may stand after a sentence's mark.
bool is_closing(char32_t c) {
  const auto type = u_charType(static_cast<UChar32>(c));
  return u_isUWhiteSpace(static_cast<UChar32>(c)) || type == U_END_PUNCTUATION ||
         type == U_FINAL_PUNCTUATION || c == U'"' || c == U'\'';
}

/// Where the text ends once white space and closing quotes and brackets are set aside.
size_t end_before_closing(std::string_view text) {
  size_t end = text.size();
  while (end > 0) {
    const CodePoint cp = decode_utf8_before(text, end);
    if (!cp.valid || !is_closing(cp.value)) break;
    end -= cp.length;
  }
  return end;
}

}  // namespace

bool lacks_final_stop(std::string_view text) {
  if (!has_letters(text)) return false;
  const size_t end = end_before_closing(text);
  if (end == 0) return false;
  const CodePoint last = decode_utf8_before(text, end);
  return last.valid && !u_ispunct(static_cast<UChar32>(last.value));
}

std::string without_added_stop(std::string_view translation, std::string_view ending) {
  const size_t end = end_before_closing(translation);
  if (end == 0 || translation[end - 1] != '.' || (end > 1 && translation[end - 2] == '.')) {
    return std::string(translation);
  }
  std::string out(translation.substr(0, end - 1));
  out.append(ending);
  out.append(translation.substr(end));
  return out;
}

}  // namespace atento::data
