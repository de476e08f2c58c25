// Tests for app/serve/language_id: CLD2 behind one function.
#include <gtest/gtest.h>

#include <string>

#include "app/serve/language_id.h"

namespace atento {
namespace {

void expect_language(const std::string& text, const std::string& code) {
  const LanguageIdentification found = identify_language(text);
  ASSERT_FALSE(found.candidates.empty()) << text;
  EXPECT_EQ(found.candidates[0].language, code) << text;
  EXPECT_TRUE(found.reliable) << text;
  EXPECT_GT(found.candidates[0].confidence, 50.0) << text;
  EXPECT_LE(found.candidates[0].confidence, 100.0) << text;
}

TEST(LanguageIdTest, IdentifiesOrdinarySentences) {
  expect_language("I would like to book a table for two people tomorrow evening, please.", "en");
  expect_language("Me gustaría reservar una mesa para dos personas mañana por la noche.", "es");
  expect_language("Ich möchte morgen Abend einen Tisch für zwei Personen reservieren.", "de");
  expect_language("Je voudrais réserver une table pour deux personnes demain soir.", "fr");
}

TEST(LanguageIdTest, UsesTodaysCodesForRenamedLanguages) {
  // CLD2 calls Hebrew "iw"; LibreTranslate (and ISO 639-1 since 1989) "he".
  expect_language("אני רוצה להזמין שולחן לשני אנשים מחר בערב, בבקשה.", "he");
}

TEST(LanguageIdTest, FindsNothingInNumbersEmptyTextOrInvalidUtf8) {
  for (const std::string& text : {std::string(), std::string("12345 678"),
                                 std::string("I would like a table \xff\xfe please")}) {
    const LanguageIdentification found = identify_language(text);
    EXPECT_TRUE(found.candidates.empty()) << text;
    EXPECT_FALSE(found.reliable) << text;
  }
}

}  // namespace
}  // namespace atento
