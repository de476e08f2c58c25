// The one UTF-8 decoder: well-formed sequences at every boundary, and the classic malformed
// ones (overlong forms, surrogates, code points past U+10FFFF, truncated and impossible bytes).

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data/utf8.h"

namespace atento::data {
namespace {

struct Valid {
  std::string bytes;
  char32_t value;
};

TEST(Utf8, DecodesEveryLengthAtItsBoundaries) {
  const std::vector<Valid> cases = {
      {"\x00", 0x0},           {"\x7F", 0x7F},           {"\xC2\x80", 0x80},
      {"\xDF\xBF", 0x7FF},     {"\xE0\xA0\x80", 0x800},  {"\xED\x9F\xBF", 0xD7FF},
      {"\xEE\x80\x80", 0xE000}, {"\xEF\xBF\xBF", 0xFFFF}, {"\xF0\x90\x80\x80", 0x10000},
      {"\xF4\x8F\xBF\xBF", 0x10FFFF}};
  for (const auto& c : cases) {
    const std::string bytes = c.bytes.empty() ? std::string(1, '\0') : c.bytes;
    const CodePoint cp = decode_utf8(bytes, 0);
    EXPECT_TRUE(cp.valid) << std::hex << c.value;
    EXPECT_EQ(cp.value, c.value);
    EXPECT_EQ(cp.length, bytes.size());
    std::string again;
    append_utf8(again, c.value);
    EXPECT_EQ(again, bytes) << std::hex << c.value;
  }
}

TEST(Utf8, RejectsTheClassicMalformedSequences) {
  const std::vector<std::string> malformed = {
      "\xC0\xAF",          "\xC1\xBF",              // overlong 2-byte forms
      "\xE0\x80\xAF",      "\xE0\x9F\xBF",          // overlong 3-byte forms
      "\xF0\x80\x80\xAF",  "\xF0\x8F\xBF\xBF",      // overlong 4-byte forms
      "\xED\xA0\x80",      "\xED\xBF\xBF",          // UTF-16 surrogates U+D800, U+DFFF
      "\xED\xA0\x80\xED\xB0\x80",                   // a surrogate pair encoded as two
      "\xF4\x90\x80\x80",  "\xF7\xBF\xBF\xBF",      // past U+10FFFF
      "\xF8\x88\x80\x80\x80", "\xFC\x84\x80\x80\x80\x80",  // 5- and 6-byte forms
      "\x80",              "\xBF",                  // lone continuation bytes
      "\xC3",              "\xE2\x82",  "\xF0\x9F\x98",  // truncated sequences
      "\xC3\x28",          "\xE2\x28\xA1",          // a continuation byte missing
      "\xFE",              "\xFF"};                 // impossible bytes
  for (const auto& bytes : malformed) {
    const CodePoint cp = decode_utf8(bytes, 0);
    EXPECT_FALSE(cp.valid) << testing::PrintToString(bytes);
    EXPECT_EQ(cp.length, 1u) << "an ill-formed sequence consumes one byte";
    EXPECT_EQ(cp.value, static_cast<unsigned char>(bytes[0]));
    EXPECT_FALSE(is_valid_utf8(bytes));
    EXPECT_FALSE(is_valid_utf8("ok " + bytes + " ok"));
  }
}

TEST(Utf8, DecodesTheCodePointBeforeAnOffset) {
  const std::string text = "a\u00F1\u2014\U0001F600";  // 1, 2, 3 and 4 bytes
  EXPECT_EQ(decode_utf8_before(text, 1).value, U'a');
  EXPECT_EQ(decode_utf8_before(text, 3).value, U'\u00F1');
  EXPECT_EQ(decode_utf8_before(text, 6).value, U'\u2014');
  EXPECT_EQ(decode_utf8_before(text, 10).value, U'\U0001F600');
  EXPECT_FALSE(decode_utf8_before("x\xFF", 2).valid);
}

TEST(Utf8, FirstInvalidNamesTheOffendingOffset) {
  EXPECT_EQ(first_invalid_utf8(""), std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8("¿Dónde está? ñ € 𝄞"), std::string_view::npos);
  EXPECT_EQ(first_invalid_utf8("abc\xC3"), 3u);
  EXPECT_EQ(first_invalid_utf8("é\xC0\xAF"), 2u);
  EXPECT_EQ(first_invalid_utf8("€\xED\xA0\x80"), 3u);
}

TEST(Utf8, ResynchronisesAfterABadByte) {
  const std::string text = "a\xFF\xC3\xA9";  // 'a', bad byte, 'é'
  std::vector<char32_t> decoded;
  for (size_t i = 0; i < text.size();) {
    const CodePoint cp = decode_utf8(text, i);
    decoded.push_back(cp.valid ? cp.value : 0xFFFD);
    i += cp.length;
  }
  EXPECT_EQ(decoded, (std::vector<char32_t>{U'a', 0xFFFD, U'é'}));
}

}  // namespace
}  // namespace atento::data
