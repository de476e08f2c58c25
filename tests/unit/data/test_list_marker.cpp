// The marker that opens a list item, a quoted e-mail line or a heading is found, and what only
// looks like one (an initial, a number the sentence goes on with, a hashtag) is not.

#include <gtest/gtest.h>

#include <initializer_list>
#include <string_view>

#include "data/list_marker.h"

namespace atento::data {
namespace {

/// A text and the marker that opens it ("" for none).
struct Case {
  std::string_view text, marker;
};

/// Each case's text has its marker found.
void expect_markers(std::initializer_list<Case> cases) {
  for (const Case& c : cases) {
    const TextSpan span = list_marker(c.text);
    EXPECT_EQ(c.text.substr(span.begin, span.size()), c.marker) << c.text;
  }
}

TEST(ListMarker, BulletsAndDashesOpenAnItem) {
  expect_markers({
      {"- Call Tom.", "-"},
      {"-- Call Tom.", "--"},
      {"* Buy some milk", "*"},
      {"+ Buy some milk", "+"},
      {"\u2022 Read the letter.", "\u2022"},
      {"\u2022Read the letter.", "\u2022"},  // a bullet character needs no space
      {"\u2014Where are you going?", "\u2014"},
      {"  \u2013 Close the door", "\u2013"},  // indented: the marker alone
  });
}

TEST(ListMarker, NumbersAndLettersOpenAnItem) {
  expect_markers({
      {"1. Open the window.", "1."},
      {"12) Wash the dishes", "12)"},
      {"(3) Wash the dishes", "(3)"},
      {"2.1. Methods", "2.1."},
      {"a) Feed the dog.", "a)"},
      {"(b) Feed the dog.", "(b)"},
      {"B) Feed the dog.", "B)"},
      {"c. Feed the dog.", "c."},
      {"iv. Wash the dishes", "iv."},
      {"II. Methods", "II."},
      {"(xii) Methods", "(xii)"},
      {"iv.", "iv."},  // cut from its item by sentence segmentation
  });
}

TEST(ListMarker, MarksCombine) {
  expect_markers({
      {"- [ ] Call Tom", "- [ ]"},
      {"* [x] Call Tom", "* [x]"},
      {"> - Call Tom", "> -"},
      {"## 1. Getting started", "## 1."},
      {">> Where is it?", ">>"},
      {">Where is it?", ">"},  // e-mail quoting needs no space
      {"# Getting started", "#"},
  });
}

TEST(ListMarker, WhatOnlyLooksLikeAMarkerIsNone) {
  expect_markers({
      {"J. Smith is here.", ""},  // an initial
      {"3.5 km is far.", ""},
      {"42 is the answer.", ""},
      {"1990 was a good year.", ""},
      {"#love is all", ""},  // a hashtag
      {"-5 degrees.", ""},
      {"*sigh*", ""},
      {"e.g. apples", ""},
      {"I. ", ""},
      {"Call Tom.", ""},
      {"a dog barked.", ""},
      {"(see above)", ""},
      {"", ""},
      {"   ", ""},
  });
}

TEST(ListMarker, TheSpanIsOfTheText) {
  const TextSpan span = list_marker("  12) Wash");
  EXPECT_EQ(span.begin, 2u);
  EXPECT_EQ(span.end, 5u);
}

}  // namespace
}  // namespace atento::data
