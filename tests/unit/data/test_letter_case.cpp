// Text in capitals: recognised, read in sentence case, and written in capitals again (ICU).

#include <gtest/gtest.h>

#include <set>
#include <string>
#include <vector>

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

TEST(LetterCase, SentenceCaseWritesWordsInTheFormTheTokenizerKnowsBest) {
  // A stand-in tokenizer: a known form is one piece, any other form one piece per byte.
  const std::set<std::string> known = {"Tom", "Tom's", "UN", "TV", "Ñandú", "a", "A", "the"};
  const WordPieces pieces = [&](const std::string& word) -> std::size_t {
    return known.count(word) ? 1 : word.size();
  };
  EXPECT_EQ(sentence_case("TOM'S TV MET THE UN. THE ÑANDÚ SAW A UN TV.", pieces),
            "Tom's TV met the UN. The Ñandú saw a UN TV.");
  // Ties keep sentence case ("a" and "A"), then title case over capitals.
  const WordPieces all_alike = [](const std::string&) -> std::size_t { return 1; };
  EXPECT_EQ(sentence_case("I'M SURE IT'S TOM, O'BRIEN'S 3D TV.", all_alike),
            sentence_case("I'M SURE IT'S TOM, O'BRIEN'S 3D TV."));
  // Apostrophes join a word only between letters.
  std::vector<std::string> seen;
  const WordPieces record = [&](const std::string& word) -> std::size_t {
    seen.push_back(word);
    return 1;
  };
  sentence_case("'TOM'S' TOM\u2019S", record);
  EXPECT_EQ(seen, (std::vector<std::string>{"Tom's", "Tom's", "TOM'S", "tom\u2019s", "Tom\u2019s",
                                            "TOM\u2019S"}));
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
