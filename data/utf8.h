#pragma once
// The one UTF-8 decoder of the project (corpus validation, the word vectorizer, the metrics).
// Strict, as Unicode 15 §3.9 Table 3-7 defines well-formed UTF-8: no overlong forms, no UTF-16
// surrogates (U+D800..U+DFFF), nothing past U+10FFFF, no truncated sequences.

#include <cstddef>
#include <string>
#include <string_view>

namespace atento::data {

/// One step of decoding.
struct CodePoint {
  char32_t value = 0;      ///< the code point; the offending byte itself when !valid
  std::size_t length = 1;  ///< bytes consumed: 1..4, and 1 when !valid
  bool valid = true;       ///< false: the byte at the position starts no well-formed sequence
};

/// Decodes the sequence starting at byte `i` of `text` (i < text.size()). An ill-formed
/// sequence consumes one byte, so a caller can resynchronise on the next one.
CodePoint decode_utf8(std::string_view text, std::size_t i);

/// Decodes the code point that ends just before byte `i` of `text` (0 < i <= text.size()):
/// from the byte before `i`, back over continuation bytes to the byte that starts it.
CodePoint decode_utf8_before(std::string_view text, std::size_t i);

/// Offset of the first byte that starts no well-formed sequence, or npos when `text` is valid.
std::size_t first_invalid_utf8(std::string_view text);

/// True when `text` is well-formed UTF-8.
bool is_valid_utf8(std::string_view text);

/// Code points in `text` (valid UTF-8): the bytes that are not continuation bytes.
std::size_t utf8_length(std::string_view text);

/// Appends the UTF-8 encoding of code point `c` (≤ U+10FFFF) to `out`.
void append_utf8(std::string& out, char32_t c);

}  // namespace atento::data
