#include "data/utf8.h"

namespace atento::data {
namespace {

// Lead byte → sequence length, first code-point bits, and the range its second byte must lie
// in (Table 3-7: the narrowed ranges after E0, ED, F0 and F4 exclude overlongs, surrogates and
// code points past U+10FFFF). Length 0: the byte cannot start a sequence.
struct Lead {
  std::size_t length = 0;
  char32_t bits = 0;
  unsigned char second_min = 0x80, second_max = 0xBF;
};

Lead classify(unsigned char b) {
  if (b >= 0xC2 && b <= 0xDF) return {2, char32_t(b & 0x1F)};
  if (b >= 0xE0 && b <= 0xEF) {
    return {3, char32_t(b & 0x0F), static_cast<unsigned char>(b == 0xE0 ? 0xA0 : 0x80),
            static_cast<unsigned char>(b == 0xED ? 0x9F : 0xBF)};
  }
  if (b >= 0xF0 && b <= 0xF4) {
    return {4, char32_t(b & 0x07), static_cast<unsigned char>(b == 0xF0 ? 0x90 : 0x80),
            static_cast<unsigned char>(b == 0xF4 ? 0x8F : 0xBF)};
  }
  return {};
}

}  // namespace

CodePoint decode_utf8(std::string_view text, std::size_t i) {
  const auto byte = [&](std::size_t k) { return static_cast<unsigned char>(text[k]); };
  const unsigned char b0 = byte(i);
  if (b0 < 0x80) return {b0, 1, true};
  const CodePoint invalid{b0, 1, false};
  const Lead lead = classify(b0);
  if (lead.length == 0 || text.size() - i < lead.length) return invalid;
  char32_t value = lead.bits;
  for (std::size_t k = 1; k < lead.length; ++k) {
    const unsigned char b = byte(i + k);
    const unsigned char min = k == 1 ? lead.second_min : 0x80;
    const unsigned char max = k == 1 ? lead.second_max : 0xBF;
    if (b < min || b > max) return invalid;
    value = (value << 6) | (b & 0x3F);
  }
  return {value, lead.length, true};
}

std::size_t first_invalid_utf8(std::string_view text) {
  for (std::size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    if (!cp.valid) return i;
    i += cp.length;
  }
  return std::string_view::npos;
}

CodePoint decode_utf8_before(std::string_view text, std::size_t i) {
  std::size_t start = i - 1;
  while (start > 0 && (static_cast<unsigned char>(text[start]) & 0xC0) == 0x80) --start;
  return decode_utf8(text, start);
}

std::size_t utf8_length(std::string_view text) {
  std::size_t n = 0;
  for (char c : text) n += (static_cast<unsigned char>(c) & 0xC0) != 0x80 ? 1 : 0;
  return n;
}

bool is_valid_utf8(std::string_view text) {
  return first_invalid_utf8(text) == std::string_view::npos;
}

void append_utf8(std::string& out, char32_t c) {
  if (c < 0x80) {
    out.push_back(static_cast<char>(c));
  } else if (c < 0x800) {
    out.push_back(static_cast<char>(0xC0 | (c >> 6)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else if (c < 0x10000) {
    out.push_back(static_cast<char>(0xE0 | (c >> 12)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  } else {
    out.push_back(static_cast<char>(0xF0 | (c >> 18)));
    out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
    out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
  }
}

}  // namespace atento::data
