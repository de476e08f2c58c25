// The forced-decoding score of the pair filter's combination: each example's teacher-forced
// cross-entropy per target token, on a model that has memorised a few pairs.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <vector>

#include "app/scoring/teacher_forcing.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

namespace mt = model::testing;

std::vector<data::Example> examples_of(const mt::Pairs& pairs, size_t shift) {
  std::vector<data::Example> out;
  for (size_t i = 0; i < pairs.src.size(); ++i) {
    const auto& words = pairs.tgt[(i + shift) % pairs.tgt.size()];
    std::vector<int64_t> tgt{mt::kBos};
    tgt.insert(tgt.end(), words.begin(), words.end());
    tgt.push_back(mt::kEos);
    out.push_back({pairs.src[i], tgt});
  }
  return out;
}

class CrossEntropyPerExample : public ::testing::Test {
 protected:
  void SetUp() override {
    torch::manual_seed(11);
    pairs_ = mt::random_pairs(6, 20, 20, 3, 7);
    ASSERT_EQ(mt::memorise(model_, mt::teacher_batch(pairs_), 400, 3e-3), 1.0);
  }
  model::Seq2Seq model_{mt::memorisation_options(2, 16)};
  mt::Pairs pairs_;
};

TEST_F(CrossEntropyPerExample, TruePairsScoreLowerThanShuffledOnes) {
  const auto right = cross_entropy_per_example(model_, examples_of(pairs_, 0), 4, torch::kCPU);
  const auto wrong = cross_entropy_per_example(model_, examples_of(pairs_, 1), 4, torch::kCPU);
  ASSERT_EQ(right.size(), pairs_.src.size());
  for (size_t i = 0; i < right.size(); ++i) {
    EXPECT_GE(right[i], 0.0);
    EXPECT_LT(right[i], wrong[i]) << "pair " << i;
  }
}

TEST_F(CrossEntropyPerExample, AgreesWithTheCorpusLossAndIgnoresBatching) {
  const auto examples = examples_of(pairs_, 2);
  const auto one_by_one = cross_entropy_per_example(model_, examples, 1, torch::kCPU);
  const auto together = cross_entropy_per_example(model_, examples, 64, torch::kCPU);
  double nll_sum = 0.0;
  for (size_t i = 0; i < examples.size(); ++i) {
    EXPECT_NEAR(one_by_one[i], together[i], 1e-4) << "padding changed example " << i;
    nll_sum += together[i] * static_cast<double>(examples[i].tgt.size() - 1);
  }
  const auto totals = evaluate_teacher_forced(model_, examples, 4096, torch::kCPU);
  EXPECT_NEAR(nll_sum, totals.nll_sum, 1e-3 * totals.nll_sum);
}

TEST(CrossEntropyPerExampleInput, NoExamplesGiveNoScores) {
  model::Seq2Seq model(mt::memorisation_options(1, 8));
  EXPECT_TRUE(cross_entropy_per_example(model, {}, 4, torch::kCPU).empty());
}

}  // namespace
}  // namespace atento
