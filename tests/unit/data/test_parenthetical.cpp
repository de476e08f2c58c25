// Asides in brackets are found where they stand between words; brackets that are part of a
// word, a list item's enumerator or that do not pair are not asides.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "data/parenthetical.h"

namespace atento::data {
namespace {

std::vector<std::string> asides(std::string_view text) {
  std::vector<std::string> out;
  for (const TextSpan& span : parentheticals(text, {0, text.size()})) {
    out.emplace_back(text.substr(span.begin, span.size()));
  }
  return out;
}

using Texts = std::vector<std::string>;

TEST(Parenthetical, AsidesBetweenWordsAndAtTheEnd) {
  EXPECT_EQ(asides("Tom (my brother) is a doctor."), Texts{"(my brother)"});
  EXPECT_EQ(asides("I bought apples (and pears)."), Texts{"(and pears)"});
  EXPECT_EQ(asides("(Tom is here.) He left."), Texts{"(Tom is here.)"});
  EXPECT_EQ(asides("A (one) and B (two, or (nested) three)!"),
            (Texts{"(one)", "(two, or (nested) three)"}));  // outermost
  EXPECT_EQ(asides("He said \"(sigh) fine\"."), Texts{"(sigh)"});
}

TEST(Parenthetical, WhatIsNoAside) {
  EXPECT_EQ(asides("Bring your friend(s)."), Texts{});  // in a word
  EXPECT_EQ(asides("Let f(x) be zero."), Texts{});      // in a word
  EXPECT_EQ(asides("(a) Feed the dog."), Texts{});      // an enumerator
  EXPECT_EQ(asides("(iv) Wash the dishes."), Texts{});  // an enumerator
  EXPECT_EQ(asides("It costs $5 (4)."), Texts{});       // no word inside
  EXPECT_EQ(asides("Smile :) (or not)."), Texts{});     // a ")" no "(" opened
  EXPECT_EQ(asides("Wait (for me."), Texts{});          // never closed
  EXPECT_EQ(asides("See (this)word."), Texts{});        // a word right after it
  EXPECT_EQ(asides(""), Texts{});
}

}  // namespace
}  // namespace atento::data
