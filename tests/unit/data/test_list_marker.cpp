// The marker that opens a list item, a quoted e-mail line or a heading is found, and what only
// looks like one (an initial, a number the sentence goes on with, a hashtag) is not.

#include <gtest/gtest.h>

#include <string>
#include <string_view>

#include "data/list_marker.h"

namespace atento::data {
namespace {

/// The marker opening `text`, as text.
std::string marker(std::string_view text) {
  const TextSpan span = list_marker(text);
  return std::string(text.substr(span.begin, span.size()));
}

TEST(ListMarker, BulletsAndDashesOpenAnItem) {
  EXPECT_EQ(marker("- Call Tom."), "-");
  EXPECT_EQ(marker("-- Call Tom."), "--");
  EXPECT_EQ(marker("* Buy some milk"), "*");
  EXPECT_EQ(marker("+ Buy some milk"), "+");
  EXPECT_EQ(marker("\u2022 Read the letter."), "\u2022");
  EXPECT_EQ(marker("\u2022Read the letter."), "\u2022");  // a bullet character needs no space
  EXPECT_EQ(marker("\u2014Where are you going?"), "\u2014");
  EXPECT_EQ(marker("  \u2013 Close the door"), "\u2013");  // indented: the marker alone
}

TEST(ListMarker, NumbersAndLettersOpenAnItem) {
  EXPECT_EQ(marker("1. Open the window."), "1.");
  EXPECT_EQ(marker("12) Wash the dishes"), "12)");
  EXPECT_EQ(marker("(3) Wash the dishes"), "(3)");
  EXPECT_EQ(marker("2.1. Methods"), "2.1.");
  EXPECT_EQ(marker("a) Feed the dog."), "a)");
  EXPECT_EQ(marker("(b) Feed the dog."), "(b)");
  EXPECT_EQ(marker("B) Feed the dog."), "B)");
  EXPECT_EQ(marker("c. Feed the dog."), "c.");
  EXPECT_EQ(marker("iv. Wash the dishes"), "iv.");
  EXPECT_EQ(marker("II. Methods"), "II.");
  EXPECT_EQ(marker("(xii) Methods"), "(xii)");
  EXPECT_EQ(marker("iv."), "iv.");  // cut from its item by sentence segmentation
}

TEST(ListMarker, MarksCombine) {
  EXPECT_EQ(marker("- [ ] Call Tom"), "- [ ]");
  EXPECT_EQ(marker("* [x] Call Tom"), "* [x]");
  EXPECT_EQ(marker("> - Call Tom"), "> -");
  EXPECT_EQ(marker("## 1. Getting started"), "## 1.");
  EXPECT_EQ(marker(">> Where is it?"), ">>");
  EXPECT_EQ(marker(">Where is it?"), ">");  // e-mail quoting needs no space
  EXPECT_EQ(marker("# Getting started"), "#");
}

TEST(ListMarker, WhatOnlyLooksLikeAMarkerIsNone) {
  EXPECT_EQ(marker("J. Smith is here."), "");  // an initial
  EXPECT_EQ(marker("3.5 km is far."), "");
  EXPECT_EQ(marker("42 is the answer."), "");
  EXPECT_EQ(marker("1990 was a good year."), "");
  EXPECT_EQ(marker("#love is all"), "");  // a hashtag
  EXPECT_EQ(marker("-5 degrees."), "");
  EXPECT_EQ(marker("*sigh*"), "");
  EXPECT_EQ(marker("e.g. apples"), "");
  EXPECT_EQ(marker("I. "), "");
  EXPECT_EQ(marker("Call Tom."), "");
  EXPECT_EQ(marker("a dog barked."), "");
  EXPECT_EQ(marker("(see above)"), "");
  EXPECT_EQ(marker(""), "");
  EXPECT_EQ(marker("   "), "");
}

TEST(ListMarker, TheSpanIsOfTheText) {
  const TextSpan span = list_marker("  12) Wash");
  EXPECT_EQ(span.begin, 2u);
  EXPECT_EQ(span.end, 5u);
}

}  // namespace
}  // namespace atento::data
