// Typographic punctuation read as the corpus' ASCII (through the tokenizers: test_tokenizer.cpp).

#include <gtest/gtest.h>

#include <string>

#include "data/punctuation.h"

namespace atento::data {
namespace {

TEST(PlainPunctuation, CurlyApostrophesAndQuotesBecomeStraight) {
  EXPECT_EQ(plain_punctuation("It\u2019s \u201Cfine\u201D, isn\u2019t it?"),
            "It's \"fine\", isn't it?");
  EXPECT_EQ(plain_punctuation("\u2018Yes\u2019 \u201Eja\u201F \u201Bx"), "'Yes' \"ja\" 'x");
  EXPECT_EQ(plain_punctuation("don\u00B4t, don`t"), "don't, don't");
}

TEST(PlainPunctuation, LeavesEverythingElseByteForByte) {
  for (const std::string text : {"", "Plain 'ASCII' \"text\".", "¿Dónde está? «Sí» — ¡ya! … 3.5 km",
                                 "\xC0\xAF bad \xE2\x80 cut \xFF", "日本語 \U0001F600"}) {
    EXPECT_EQ(plain_punctuation(text), text);
  }
  // An ill-formed byte next to a curly quote: the quote is read, the byte kept.
  EXPECT_EQ(plain_punctuation("\xFF\u2019\xE2\x80"), "\xFF'\xE2\x80");
}

TEST(PlainPunctuation, MapsSingleCodePoints) {
  EXPECT_EQ(plain_punctuation(U'\u2019'), U'\'');
  EXPECT_EQ(plain_punctuation(U'\u201C'), U'"');
  EXPECT_EQ(plain_punctuation(U'\u00AB'), U'\u00AB');  // « is Spanish's own quote: kept
  EXPECT_EQ(plain_punctuation(U'a'), U'a');
}

}  // namespace
}  // namespace atento::data
