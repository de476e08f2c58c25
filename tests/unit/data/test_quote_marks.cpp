// Quotation marks at a piece's edges whose partner is outside it are left out of what the model
// reads; pairs inside a piece are the model's.

#include <gtest/gtest.h>

#include <string>
#include <string_view>
#include <vector>

#include "data/quote_marks.h"

namespace atento::data {
namespace {

/// The marks at the edges of the piece `piece` of `text`, as text.
std::vector<std::string> edges(std::string_view text, std::string_view piece) {
  const size_t begin = text.find(piece);
  std::vector<std::string> out;
  for (const TextSpan& span : QuoteMarks(text).at_edges({begin, begin + piece.size()})) {
    out.emplace_back(text.substr(span.begin, span.size()));
  }
  return out;
}

using Marks = std::vector<std::string>;

TEST(QuoteMarks, AQuotationOfSeveralSentencesHasItsMarksAtThePiecesEdges) {
  const std::string text = "He said, \"I am tired. Let us go home.\" Then he left.";
  EXPECT_EQ(edges(text, "He said, \"I am tired. "), Marks{});  // opened inside: the model's
  EXPECT_EQ(edges(text, "Let us go home.\" "), Marks{"\""});
  EXPECT_EQ(edges(text, "Then he left."), Marks{});
  const std::string wrote = "\"Where are you? I miss you,\" she wrote.";
  EXPECT_EQ(edges(wrote, "\"Where are you? "), Marks{"\""});
  EXPECT_EQ(edges(wrote, "I miss you,\" she wrote."), Marks{});
}

TEST(QuoteMarks, ASentenceQuotedWholeLosesBothAndAPairInsideKeepsThem) {
  EXPECT_EQ(edges("\"I'm tired.\" \"Me too.\"", "\"Me too.\""), (Marks{"\"", "\""}));
  EXPECT_EQ(edges("\u201CI'm tired.\u201D", "\u201CI'm tired.\u201D"), (Marks{"\u201C", "\u201D"}));
  EXPECT_EQ(edges("\u00ABHola.\u00BB", "\u00ABHola.\u00BB"), (Marks{"\u00AB", "\u00BB"}));
  EXPECT_EQ(edges("\"Hello,\" he said.", "\"Hello,\" he said."), Marks{});
  EXPECT_EQ(edges("The word \"hipster\" is new.", "The word \"hipster\" is new."), Marks{});
  // Two quotations in one piece: the first mark's partner is inside, not the last one.
  EXPECT_EQ(edges("\"Yes\" and \"no\"", "\"Yes\" and \"no\""), Marks{});
}

TEST(QuoteMarks, WhiteSpaceAtTheEdgesIsSkippedAndAPieceWithoutMarksHasNone) {
  const std::string text = "Tom: \"Go now.  Run!\"  ";
  EXPECT_EQ(edges(text, "Run!\"  "), Marks{"\""});
  EXPECT_EQ(edges("No marks here.", "No marks here."), Marks{});
  EXPECT_EQ(edges("\"", "\""), Marks{"\""});
  EXPECT_TRUE(QuoteMarks("").at_edges({0, 0}).empty());
}

}  // namespace
}  // namespace atento::data
