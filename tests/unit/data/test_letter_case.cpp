// Text in capitals: recognised, read in sentence case, and written in capitals again (ICU).

#include <gtest/gtest.h>

#include <string>

#include "data/letter_case.h"

namespace atento::data {
namespace {

TEST(LetterCase, TextInCapitalsHasTwoUpperCaseLettersAndNoLowerCaseOne) {
  for (const std::string text :
       {"WHERE IS THE STATION?", "HELP!", "OK.", "¡ÑANDÚ, SEÑOR!", "ΕΛΛΆΔΑ", "I'M 42 YEARS OLD."}) {
    EXPECT_TRUE(is_in_capitals(text)) << text;
  }
  for (const std::string text : {"", "I.", "3.5 km", "Tom met NASA.", "Where is Tom?",
                                 "WHERE IS THE STATIoN?", "日本語", "\xFF\xFE"}) {
    EXPECT_FALSE(is_in_capitals(text)) << text;
  }
}

TEST(LetterCase, SentenceCaseUpperCasesTheFirstLetterOfEachSentenceOnly) {
  EXPECT_EQ(sentence_case("WHERE IS THE STATION? I DON'T KNOW."),
            "Where is the station? I don't know.");
  EXPECT_EQ(sentence_case("\"HELLO,\" SAID TOM. ¡ÑANDÚ!"), "\"Hello,\" said tom. ¡Ñandú!");
  EXPECT_EQ(sentence_case("NO FINAL STOP"), "No final stop");
  EXPECT_EQ(sentence_case("IT IS 3.5 KM AWAY. 42 IS THE ANSWER. \"GO.\" (NOW!) OK, SO."),
            "It is 3.5 km away. 42 is the answer. \"Go.\" (Now!) Ok, so.");
  // The pronoun I stays upper case, alone or in a contraction; other i's do not.
  EXPECT_EQ(sentence_case("DO I KNOW? I'M SURE, AND SO AM I. IT IS, I.E., MY II PIN I2."),
            "Do I know? I'm sure, and so am I. It is, i.e., my ii pin i2.");
  EXPECT_EQ(sentence_case(""), "");
}

TEST(LetterCase, WordsInCapitalsTitleCasedByteForByte) {
  EXPECT_EQ(title_case_words_in_capitals("A BIT MORE SALT. Tom met NASA in the U.S. ÑANDÚ!"),
            "A Bit More Salt. Tom met Nasa in the U.S. Ñandú!");
  EXPECT_EQ(title_case_words_in_capitals("McDONALD'S 3D \xFF OK"), "McDONALD'S 3D \xFF Ok");
  // U+0130 (İ, 2 bytes) lower-cases to "i" + U+0307 in full mappings, to "i" in simple ones:
  // either way not 2 bytes, so it is kept.
  EXPECT_EQ(title_case_words_in_capitals("KİLO"), "Kİlo");
}

TEST(LetterCase, UpperCaseUsesUnicodeMappings) {
  EXPECT_EQ(upper_case("¿Dónde está el niño? Aquí."), "¿DÓNDE ESTÁ EL NIÑO? AQUÍ.");
  EXPECT_EQ(upper_case("straße"), "STRASSE");  // one letter to two
  EXPECT_EQ(upper_case("3,5 km"), "3,5 KM");
}

}  // namespace
}  // namespace atento::data
