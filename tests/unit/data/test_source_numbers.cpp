// A translation's numbers that its source lacks are replaced by the source's, one for one, and
// nothing else is touched.

#include <gtest/gtest.h>

#include "data/source_numbers.h"

namespace atento::data {
namespace {

TEST(SourceNumbers, ANumberChangedIsWrittenAsTheSourcesInSpanishNotation) {
  EXPECT_EQ(with_source_numbers("The camera will cost at least $500.",
                                "La cámara costará al menos 20 dólares."),
            "La cámara costará al menos 500 dólares.");
  EXPECT_EQ(with_source_numbers("It was proposed in 1927 and expanded in 1929.",
                                "Se propuso en 1922 y se amplió en 1929."),
            "Se propuso en 1927 y se amplió en 1929.");
  EXPECT_EQ(with_source_numbers("He gave her over 34,000 dollars.", "Le dio 3.000 dólares."),
            "Le dio 34.000 dólares.");
  EXPECT_EQ(with_source_numbers("It is 3.5 km away.", "Está a 35 km."), "Está a 3,5 km.");
  // Two changed: each in the order they stand.
  EXPECT_EQ(with_source_numbers("at 18 or 21, in 2061", "a los 181 o 21, en 2016"),
            "a los 18 o 21, en 2061");
}

TEST(SourceNumbers, NumbersKeptOrWrittenInWordsAreLeftAlone) {
  // The same digits in either notation are the same number.
  EXPECT_EQ(with_source_numbers("It costs 1,000 dollars.", "Cuesta 1.000 dólares."),
            "Cuesta 1.000 dólares.");
  EXPECT_EQ(with_source_numbers("I was born 20 years ago.", "Nací hace veinte años."),
            "Nací hace veinte años.");
  EXPECT_EQ(with_source_numbers("We left at 2:30.", "Nos fuimos a las dos y media."),
            "Nos fuimos a las dos y media.");
  // One number in words, one changed: as many missing as invented is not the case.
  EXPECT_EQ(with_source_numbers("I have 2 dogs and 3 cats.", "Tengo dos perros y 4 gatos."),
            "Tengo dos perros y 4 gatos.");
  EXPECT_EQ(with_source_numbers("I like it.", "Me gusta 5."), "Me gusta 5.");
}

TEST(SourceNumbers, DigitsTouchingLettersAreNoNumbers) {
  EXPECT_EQ(
      with_source_numbers("Our class has 41 students.", "Nuestra clase tiene cuatro1 estudiantes."),
      "Nuestra clase tiene cuatro1 estudiantes.");
  EXPECT_EQ(with_source_numbers("Buy a 4x4 for 30 dollars.", "Compra un 4x4 por 3 dólares."),
            "Compra un 4x4 por 30 dólares.");
  EXPECT_EQ(with_source_numbers("", ""), "");
}

}  // namespace
}  // namespace atento::data
