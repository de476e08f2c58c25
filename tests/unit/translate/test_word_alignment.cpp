// Symmetrised word alignment (intersection + final-and, then a link for every source word that
// has none) on hand-made attention matrices.

#include <gtest/gtest.h>

#include <vector>

#include "app/translate/word_alignment.h"

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

}  // namespace
}  // namespace atento
