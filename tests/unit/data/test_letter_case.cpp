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

TEST(LetterCase, TextInLowerCaseHasNoUpperCaseLetterButThePronounI) {
  for (const std::string text :
       {"where is tom? i don't know.", "ok", "where am I? I'm lost", "ñandú", "3 km away"}) {
    EXPECT_TRUE(is_in_lower_case(text)) << text;
  }
  for (const std::string text : {"", "I", "42.", "Where is tom?", "tom met NASA", "IT IS",
                                 "i met Ian", "I like it.", "\xFF\xFE"}) {
    EXPECT_FALSE(is_in_lower_case(text)) << text;
  }
}

TEST(LetterCase, TextInTitleCaseCapitalisesAllButTheMinorWords) {
  for (const std::string text : {"Where Is the Station?", "How to Train Your Dragon", "I Am Here.",
                                 "Don't Go Out Alone", "Tom, Mary and Ann"}) {
    EXPECT_TRUE(is_in_title_case(text)) << text;
  }
  for (const std::string text :
       {"Tom met Mary in Boston.", "Tom Jackson", "Terms and conditions", "WHERE IS THE STATION?",
        "where is the station", "Mr. Smith", ""}) {
    EXPECT_FALSE(is_in_title_case(text)) << text;
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
  EXPECT_EQ(sentence_case("SO I\u2019LL GO, \u2018I\u2019 SAID."),
            "So I\u2019ll go, \u2018I\u2019 said.");
  // A piece cut from a sentence at a comma opens none: its first letter stays lower case.
  EXPECT_EQ(sentence_case("AND THEN WE LEFT. WE WENT HOME", false),
            "and then we left. We went home");
}

TEST(LetterCase, SentenceStartsCapitalisedByteForByte) {
  const std::string text = "ok. where is it? ñandú! it is 3.5 km. \"go.\" now";
  const std::string read = capitalise_sentence_starts(text);
  EXPECT_EQ(read, "Ok. Where is it? Ñandú! It is 3.5 km. \"Go.\" Now");
  EXPECT_EQ(read.size(), text.size());
  EXPECT_EQ(capitalise_sentence_starts("\xFF ok. \xFE"), "\xFF Ok. \xFE");  // invalid bytes kept
}

TEST(LetterCase, SentenceCaseWritesWordsInTheFormTheTokenizerKnowsBest) {
  // A stand-in tokenizer: a known form is one piece, any other form one piece per byte.
  const std::set<std::string> known = {"Tom", "UN", "TV", "Ñandú", "a", "A", "the", "O"};
  const WordPieces pieces = [&](const std::string& word) -> std::size_t {
    return known.count(word) ? 1 : word.size();
  };
  EXPECT_EQ(sentence_case("TOM'S TV MET THE UN. THE ÑANDÚ SAW A UN TV.", pieces),
            "Tom's TV met the UN. The Ñandú saw a UN TV.");
  // The letters before an apostrophe decide, with curly apostrophes too; "a" is known as it is.
  EXPECT_EQ(sentence_case("A TOM\u2019S O'NEIL 'TOM'", pieces), "A Tom\u2019s o'neil 'Tom'");
  // A word that no form of makes one piece stays in sentence case, however long.
  const std::string run = "SEE HTTP://EXAMPLE.ORG/" + std::string(600, 'X');
  EXPECT_EQ(sentence_case(run, pieces), sentence_case(run));
  const WordPieces all_alike = [](const std::string&) -> std::size_t { return 1; };
  EXPECT_EQ(sentence_case("I'M SURE IT'S TOM, O'BRIEN'S 3D TV.", all_alike),
            sentence_case("I'M SURE IT'S TOM, O'BRIEN'S 3D TV."));
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

TEST(LetterCase, AClauseIsReadWithACapitalAndItsTranslationContinuesInLowerCase) {
  EXPECT_EQ(capitalise_first_letter("and I left."), "And I left.");
  EXPECT_EQ(capitalise_first_letter("\u00E9l vino."), "\u00C9l vino.");
  for (const char* same : {"Tom left.", "\"why?\"", "", "3 km"}) {
    EXPECT_EQ(capitalise_first_letter(same), same);
  }
  EXPECT_EQ(lower_case_first_letter("No puedo."), "no puedo.");
  EXPECT_EQ(lower_case_first_letter("\u00BFD\u00F3nde est\u00E1?"), "\u00BFd\u00F3nde est\u00E1?");
  EXPECT_EQ(lower_case_first_letter("\u00C9l vino."), "\u00E9l vino.");
  for (const char* same : {"ONU dijo.", "y me fui.", "", "42 veces.", "\u00BF"}) {
    EXPECT_EQ(lower_case_first_letter(same), same);
  }
}

}  // namespace
}  // namespace atento::data
