#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "app/eval/eval_subsets.h"

namespace atento {
namespace {

std::vector<data::Pair> training() {
  return {{"I see Tom.", "Veo a Tom."},
          {"I see Mary.", "Veo a Mary."},
          {"I see a cat.", "Veo un gato."},
          {"Tom sees a cat now.", "Tom ve un gato ahora."},
          {"Run!", "¡Corre!"}};
}

TEST(EvalSubsets, ProfileCountsWordsLengthsAndTheLengthRatio) {
  const auto profile = profile_training(training());
  EXPECT_EQ(profile.source_word_counts.at("see"), 3);
  EXPECT_EQ(profile.source_word_counts.at("tom"), 2);  // lower-cased, punctuation stripped
  EXPECT_EQ(profile.median_source_words, 3);           // of 3, 3, 4, 5, 1 words
  // 16 English words, 15 Spanish ones ("¡Corre!" is one word).
  EXPECT_DOUBLE_EQ(profile.target_per_source_word, 15.0 / 16.0);
}

TEST(EvalSubsets, UnseenNeedsANewSourceAndNewNeedsBothSidesNew) {
  const auto profile = profile_training(training());
  const data::Pair repeated{"I see Tom.", "Yo veo a Tom."};
  const data::Pair known_target{"I see a kitten.", "Veo un gato."};
  const data::Pair fresh{"I see a kitten.", "Veo un gatito."};
  EXPECT_FALSE(in_subset(profile, repeated, Subset::kUnseen));
  EXPECT_TRUE(in_subset(profile, known_target, Subset::kUnseen));
  EXPECT_FALSE(in_subset(profile, known_target, Subset::kNewRare));
  EXPECT_TRUE(in_subset(profile, fresh, Subset::kNewRare));  // "kitten": never in training
}

TEST(EvalSubsets, RareMeansAtMostTwoOccurrencesAndLongMeansOverTheMedian) {
  const auto profile = profile_training(training());
  // "tom" occurs twice (rare), "see" and "i" three times (not rare).
  EXPECT_TRUE(in_subset(profile, {"See Tom.", "Mira a Tom."}, Subset::kNewRare));
  EXPECT_FALSE(in_subset(profile, {"I see.", "Ya veo."}, Subset::kNewRare));
  EXPECT_FALSE(in_subset(profile, {"I see.", "Ya veo."}, Subset::kNewLong));   // 2 words
  EXPECT_FALSE(in_subset(profile, {"I see a.", "Veo a."}, Subset::kNewLong));  // 3: the median
  // Its source occurs in training, however long.
  EXPECT_FALSE(in_subset(profile, {"I see a cat.", "Yo veo un gato."}, Subset::kNewLong));
  EXPECT_TRUE(in_subset(profile, {"I see a cat too.", "Veo un gato también."}, Subset::kNewLong));
}

TEST(EvalSubsets, ShortMeansUnderHalfTheExpectedWords) {
  const auto profile = profile_training(training());  // 15/16 Spanish words per English word
  const std::string source = "If you have a question, please raise your hand.";  // 9 words
  // 0.5 × 9 × 15/16 = 4.2 words: four words are short, five are not.
  EXPECT_TRUE(is_short(profile, source, "Si tienes una pregunta."));
  EXPECT_FALSE(is_short(profile, source, "Si tienes una pregunta, levanta."));
  EXPECT_FALSE(is_short(profile, source, "Si tienes una pregunta, por favor levanta la mano."));
  EXPECT_TRUE(is_short(profile, source, ""));
  EXPECT_FALSE(is_short(profile, "", ""));
}

}  // namespace
}  // namespace atento
