// A sentence without final punctuation is read with a stop added, which its translation loses.

#include <gtest/gtest.h>

#include <string>

#include "data/sentence_stop.h"

namespace atento::data {
namespace {

TEST(SentenceStop, ATextEndingInAWordDigitOrSymbolLacksItsStop) {
  for (const char* text : {"About us", "I like dogs", "Where is the station", "Call me at 5",
                           "It costs 5 \u20AC", "He said \"hi\"", "(see above)", "Me gusta  ",
                           "\u00BFD\u00F3nde est\u00E1 Tom", "Tom left\u00A0"}) {
    EXPECT_TRUE(lacks_final_stop(text)) << text;
  }
}

TEST(SentenceStop, ATextEndingInPunctuationOrWithoutLettersHasNoneAdded) {
  for (const char* text :
       {"Hi.", "Why?", "Stop!", "Well,", "Wait...", "Wait\u2026", "So:", "He said \"hi.\"",
        "(See above.)", "\u00AB\u00BFQu\u00E9?\u00BB", "42", "$9.99", "10:30", "|", "", "   "}) {
    EXPECT_FALSE(lacks_final_stop(text)) << text;
  }
}

TEST(SentenceStop, OneFinalFullStopIsTakenOffAndOtherMarksStay) {
  EXPECT_EQ(without_added_stop("Me gustan los perros."), "Me gustan los perros");
  EXPECT_EQ(without_added_stop("Dijo \"hola\"."), "Dijo \"hola\"");
  EXPECT_EQ(without_added_stop("Dijo \"hola.\""), "Dijo \"hola\"");
  EXPECT_EQ(without_added_stop("Hola. "), "Hola ");
  EXPECT_EQ(without_added_stop("\u00BFD\u00F3nde est\u00E1 Tom?"),
            "\u00BFD\u00F3nde est\u00E1 Tom?");
  EXPECT_EQ(without_added_stop("\u00A1Hola!"), "\u00A1Hola!");
  EXPECT_EQ(without_added_stop("Espera..."), "Espera...");
  EXPECT_EQ(without_added_stop("Sobre nosotros"), "Sobre nosotros");
  EXPECT_EQ(without_added_stop(""), "");
  EXPECT_EQ(without_added_stop("."), "");
  // A clause read with a stop for its comma takes the comma back; the model's own mark stays.
  EXPECT_EQ(without_added_stop("Me fui.", ","), "Me fui,");
  EXPECT_EQ(without_added_stop("Dijo \"hola.\"", ";"), "Dijo \"hola;\"");
  EXPECT_EQ(without_added_stop("Vinimos.", " \u2014"), "Vinimos \u2014");
  EXPECT_EQ(without_added_stop("\u00BFVienes?", ","), "\u00BFVienes?");
}

}  // namespace
}  // namespace atento::data
