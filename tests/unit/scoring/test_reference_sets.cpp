// Tests for app/scoring/reference_sets: distinct sources and every reference of each.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/scoring/reference_sets.h"

namespace atento {
namespace {

using Texts = std::vector<std::string>;

const std::vector<data::Pair> kPairs = {
    {"Hi.", "Hola."}, {"Go.", "Ve."}, {"Hi.", "Buenas."}, {"Run.", "Corre."}, {"Go.", "Vete."}};

TEST(ReferenceSets, EachSourceOnceInFirstOccurrenceOrderWithEveryTarget) {
  const ReferenceSets sets = reference_sets(kPairs);
  EXPECT_EQ(sets.sources, (Texts{"Hi.", "Go.", "Run."}));
  ASSERT_EQ(sets.references.size(), 3u);
  EXPECT_EQ(sets.references[0], (Texts{"Hola.", "Buenas."}));
  EXPECT_EQ(sets.references[1], (Texts{"Ve.", "Vete."}));
  EXPECT_EQ(sets.references[2], (Texts{"Corre."}));
}

TEST(ReferenceSets, TheFirstSourcesKeepEveryReferenceOfTheirs) {
  const ReferenceSets sets = reference_sets(kPairs, 2);
  EXPECT_EQ(sets.sources, (Texts{"Hi.", "Go."}));
  ASSERT_EQ(sets.references.size(), 2u);
  EXPECT_EQ(sets.references[1], (Texts{"Ve.", "Vete."}));  // the later "Go." pair too
  EXPECT_TRUE(reference_sets(kPairs, 0).sources.empty());
  EXPECT_TRUE(reference_sets({}).sources.empty());
}

}  // namespace
}  // namespace atento
