// A translation's numbers that its source lacks are replaced by the source's, one for one, and
// nothing else is touched.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "data/source_numbers.h"

namespace atento::data {
namespace {

/// A source, the model's translation of it, and the translation with the source's numbers.
struct Case {
  std::string_view source, translation, expected;
};

void expect_numbers(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    EXPECT_EQ(with_source_numbers(c.source, c.translation), c.expected) << c.source;
  }
}

TEST(SourceNumbers, ANumberChangedIsWrittenAsTheSourcesInSpanishNotation) {
  expect_numbers({
      {"The camera will cost at least $500.", "La cámara costará al menos 20 dólares.",
       "La cámara costará al menos 500 dólares."},
      {"It was proposed in 1927 and expanded in 1929.", "Se propuso en 1922 y se amplió en 1929.",
       "Se propuso en 1927 y se amplió en 1929."},
      {"He gave her over 34,000 dollars.", "Le dio 3.000 dólares.", "Le dio 34.000 dólares."},
      {"It is 3.5 km away.", "Está a 35 km.", "Está a 3,5 km."},
      // Two changed: each in the order they stand.
      {"at 18 or 21, in 2061", "a los 181 o 21, en 2016", "a los 18 o 21, en 2061"},
  });
}

TEST(SourceNumbers, NumbersKeptOrWrittenInWordsAreLeftAlone) {
  expect_numbers({
      // The same digits in either notation are the same number.
      {"It costs 1,000 dollars.", "Cuesta 1.000 dólares.", "Cuesta 1.000 dólares."},
      {"I was born 20 years ago.", "Nací hace veinte años.", "Nací hace veinte años."},
      {"We left at 2:30.", "Nos fuimos a las dos y media.", "Nos fuimos a las dos y media."},
      // One number in words, one changed: not as many missing as invented.
      {"I have 2 dogs and 3 cats.", "Tengo dos perros y 4 gatos.", "Tengo dos perros y 4 gatos."},
      {"I like it.", "Me gusta 5.", "Me gusta 5."},
  });
}

TEST(SourceNumbers, DigitsTouchingLettersAreNoNumbers) {
  expect_numbers({
      {"Our class has 41 students.", "Nuestra clase tiene cuatro1 estudiantes.",
       "Nuestra clase tiene cuatro1 estudiantes."},
      {"Buy a 4x4 for 30 dollars.", "Compra un 4x4 por 3 dólares.",
       "Compra un 4x4 por 30 dólares."},
      {"", "", ""},
  });
}

}  // namespace
}  // namespace atento::data
