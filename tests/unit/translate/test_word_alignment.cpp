// Symmetrised word alignment (intersection + final-and, then a link for every source word that
// has none) on hand-made attention matrices, and the attention weighed with a word lexicon.

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/translate/word_alignment.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

using Links = std::vector<std::vector<size_t>>;

TEST(SymmetricAlignment, KeepsTheLinksBothDirectionsAgreeOn) {
  // Each target word attends most to the source word in its place, and is its most attending.
  const Links links =
      symmetric_alignment({{0.8f, 0.1f, 0.1f}, {0.1f, 0.7f, 0.2f}, {0.2f, 0.1f, 0.7f}});
  EXPECT_EQ(links, (Links{{0}, {1}, {2}}));
}

TEST(SymmetricAlignment, ASourceWordDoesNotTakeEveryTargetWordThatAttendsToIt) {
  // "Mary of" -> "a Mary de": "a" and "de" both attend most to "of", but "of" is attended
  // most by "de"; forward alone would stretch a tag on "of" over "a Mary de".
  const Links links = symmetric_alignment({{0.5f, 0.4f},    // a
                                           {0.2f, 0.8f},    // Mary
                                           {0.7f, 0.3f}});  // de
  EXPECT_EQ(links, (Links{{}, {1}, {0}}));
}

TEST(SymmetricAlignment, AddsALinkOfOneDirectionBetweenTwoUnalignedWords) {
  // "the reason" -> "la razón": both target words attend most to "reason", but "the" is
  // attended most by "la": that backward link joins two words without links and is added.
  const Links links = symmetric_alignment({{0.3f, 0.6f}, {0.1f, 0.9f}});
  EXPECT_EQ(links, (Links{{0}, {1}}));
}

TEST(SymmetricAlignment, ASourceWordWithoutALinkKeepsItsMostAttendingTargetWord) {
  // "you need a" -> "Necesitas un": "Necesitas" attends most to "you" and is the most
  // attending of both "you" and "need"; intersection links it to "you" only, and final-and
  // adds nothing (it has a link). "need" keeps its backward link, so a tag on "need a" covers
  // "Necesitas un" and not "un" alone.
  const Links links = symmetric_alignment({{0.5f, 0.4f, 0.1f},    // Necesitas
                                           {0.1f, 0.2f, 0.7f}});  // un
  EXPECT_EQ(links, (Links{{0, 1}, {2}}));
}

TEST(SymmetricAlignment, ZerosGetNoLinkAndRaggedRowsAreFine) {
  const Links links = symmetric_alignment({{0.0f, 0.0f}, {0.9f}, {}});
  EXPECT_EQ(links, (Links{{}, {0}, {}}));
  EXPECT_TRUE(symmetric_alignment({}).empty());
}

/// A lexicon of the given `English<TAB>Spanish<TAB>p` lines.
data::WordLexicon lexicon_of(const std::string& lines) {
  data::test_util::TempDir dir;
  return data::WordLexicon::load(dir.write("lexicon.tsv", lines));
}

TEST(WeighWithLexicon, TheLexiconUndoesAttentionOnTheWrongNeighbour) {
  // "the little girl" -> "la niña pequeña", where "pequeña" attends to "girl" most: attention
  // alone links "girl" to "pequeña" and "little" to "niña" (a tag on "girl" would hold the
  // wrong word); the lexicon knows niña/girl and pequeña/little.
  const std::vector<std::vector<float>> attention = {{0.6f, 0.2f, 0.2f},   // la
                                                     {0.1f, 0.4f, 0.5f},   // niña
                                                     {0.1f, 0.2f, 0.7f}};  // pequeña
  EXPECT_EQ(symmetric_alignment(attention), (Links{{0}, {1}, {2}}));
  const auto lexicon = lexicon_of("girl\tniña\t0.8\nlittle\tpequeña\t0.6\nthe\tla\t0.5\n");
  const auto weighed =
      weigh_with_lexicon(attention, {"the", "little", "girl"}, {"la", "niña", "pequeña"}, lexicon);
  EXPECT_EQ(symmetric_alignment(weighed), (Links{{0}, {2}, {1}}));
}

TEST(WeighWithLexicon, AveragesTheAttentionWithTheLexiconsPosterior) {
  // Row "ir" over "to go": attention 0.2 / 0.6 of its 0.8; the lexicon: p(ir | go) 0.6,
  // p(ir | to) 0.1, p(ir | empty word) 0.3, so its posterior is 0.1 and 0.6 of 1.0.
  const auto lexicon = lexicon_of("go\tir\t0.6\nto\tir\t0.1\n\tir\t0.3\n");
  const auto weighed = weigh_with_lexicon({{0.2f, 0.6f}}, {"to", "go"}, {"ir"}, lexicon);
  ASSERT_EQ(weighed.size(), 1u);
  EXPECT_NEAR(weighed[0][0], 0.5f * (0.25f + 0.1f), 1e-6);
  EXPECT_NEAR(weighed[0][1], 0.5f * (0.75f + 0.6f), 1e-6);
}

TEST(WeighWithLexicon, LinksOnlyWhatAttentionSeesAndKeepsAttentionWhereItKnowsNothing) {
  const auto lexicon = lexicon_of("house\tcasa\t0.9\n");
  // Row 0: "casa" attends to "house" of another sentence not at all (0): no link appears.
  // Row 1: "Tom", a word the lexicon lacks: its attention, made a distribution. Row 2: none.
  const auto weighed = weigh_with_lexicon({{0.0f, 0.4f}, {0.3f, 0.1f}, {0.0f, 0.0f}},
                                          {"house", "red"}, {"casa", "tom", "roja"}, lexicon);
  EXPECT_EQ(weighed[0][0], 0.0f);
  EXPECT_NEAR(weighed[0][1], 1.0f, 1e-6);
  EXPECT_NEAR(weighed[1][0], 0.75f, 1e-6);
  EXPECT_NEAR(weighed[1][1], 0.25f, 1e-6);
  EXPECT_EQ(weighed[2], (std::vector<float>{0.0f, 0.0f}));
}

}  // namespace
}  // namespace atento
