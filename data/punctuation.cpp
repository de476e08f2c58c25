#include "data/punctuation.h"

#include "data/utf8.h"

namespace atento::data {

char32_t plain_punctuation(char32_t c) {
  switch (c) {
    case U'\u2018':  // ‘ left single quotation mark
    case U'\u2019':  // ’ right single quotation mark, the typographic apostrophe
    case U'\u201B':  // ‛ single high-reversed-9 quotation mark
    case U'\u00B4':  // ´ acute accent, typed for an apostrophe ("don´t")
    case U'`':       // grave accent, typed for an apostrophe ("don`t")
      return U'\'';
    case U'\u201C':  // “ left double quotation mark
    case U'\u201D':  // ” right double quotation mark
    case U'\u201E':  // „ double low-9 quotation mark
    case U'\u201F':  // ‟ double high-reversed-9 quotation mark
      return U'"';
    default:
      return c;
  }
}

std::string plain_punctuation(std::string_view text) {
  std::string out;
  out.reserve(text.size());
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    const char32_t plain = cp.valid ? plain_punctuation(cp.value) : cp.value;
    if (cp.valid && plain != cp.value) {
      out.push_back(static_cast<char>(plain));
    } else {
      out.append(text, i, cp.length);
    }
    i += cp.length;
  }
  return out;
}

}  // namespace atento::data
