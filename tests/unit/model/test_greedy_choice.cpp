// A greedy step's choice (best allowed token, its log-probability) against log_softmax in double.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>

#include "model/greedy_choice.h"

namespace atento::model {
namespace {

constexpr double kMinusInfinity = -std::numeric_limits<double>::infinity();

// log_softmax over all V in double, forbidden ids at −inf, then each row's largest value and
// its first index.
std::pair<torch::Tensor, torch::Tensor> reference(const torch::Tensor& logits,
                                                  const torch::Tensor& forbidden) {
  auto logp =
      torch::log_softmax(logits.to(torch::kDouble), -1).index_fill_(1, forbidden, kMinusInfinity);
  auto [best, token] = logp.max(-1);
  return {best, token};
}

void expect_equal(const torch::Tensor& logits, const torch::Tensor& forbidden) {
  const auto got = greedy_choice(logits, forbidden);
  const auto [best, token] = reference(logits, forbidden);
  EXPECT_EQ(got.log_prob.scalar_type(), torch::kFloat);
  EXPECT_EQ(got.token.scalar_type(), torch::kLong);
  EXPECT_TRUE(torch::equal(got.token, token)) << got.token << token;
  EXPECT_TRUE(torch::allclose(got.log_prob.to(torch::kDouble), best, 1e-5, 1e-5))
      << (got.log_prob.to(torch::kDouble) - best).abs().max();
}

TEST(ModelGreedyChoice, EqualsLogSoftmaxAndMaxOnAVocabulary) {
  torch::manual_seed(5);
  const auto forbidden = torch::tensor({0, 2}, torch::kLong);
  for (int64_t rows : {1, 3, 32}) {
    expect_equal(torch::randn({rows, 8000}) * 4.0, forbidden);
  }
}

TEST(ModelGreedyChoice, OddWidthsAndForbiddenIdsAnywhere) {
  torch::manual_seed(6);
  for (int64_t vocab : {5, 7, 8, 9, 17, 33, 1001}) {
    auto logits = torch::randn({4, vocab}) * 3.0;
    auto forbidden =
        torch::tensor({vocab - 1, int64_t{0}, vocab / 2, int64_t{0}});  // unsorted, twice
    expect_equal(logits, forbidden);
  }
}

TEST(ModelGreedyChoice, AForbiddenLargestIsPassedOverButStillNormalises) {
  auto logits = torch::randn({2, 50});
  logits.index_put_({0, 17}, 40.0);  // forbidden and far the largest: the normaliser is about it
  logits.index_put_({1, 49}, 30.0);
  const auto forbidden = torch::tensor({17, 49}, torch::kLong);
  expect_equal(logits, forbidden);
  const auto got = greedy_choice(logits, forbidden);
  EXPECT_NE(got.token[0].item<int64_t>(), 17);
  EXPECT_LT(got.log_prob[0].item<float>(), -30.0f);
}

TEST(ModelGreedyChoice, TiesGoToTheFirstIndex) {
  auto logits = torch::zeros({3, 40});
  logits.index_put_({0, 9}, 2.0);
  logits.index_put_({0, 33}, 2.0);  // another lane of the vector loop, later
  logits.index_put_({1, 35}, 1.0);
  logits.index_put_({1, 39}, 1.0);  // both in the scalar tail
  const auto got = greedy_choice(logits, torch::tensor({0}, torch::kLong));
  EXPECT_EQ(got.token[0].item<int64_t>(), 9);
  EXPECT_EQ(got.token[1].item<int64_t>(), 35);
  EXPECT_EQ(got.token[2].item<int64_t>(), 1);  // all equal: the first allowed
  expect_equal(logits, torch::tensor({0}, torch::kLong));
}

TEST(ModelGreedyChoice, ExtremeLogitsAndNegativeInfinity) {
  auto logits = torch::randn({2, 300}) * 50.0;  // differences far beyond exp's float range
  logits.index_put_({1, torch::indexing::Slice(0, 150)}, -std::numeric_limits<float>::infinity());
  expect_equal(logits, torch::tensor({1}, torch::kLong));
}

TEST(ModelGreedyChoice, BFloat16LogitsAreReadInFloat) {
  torch::manual_seed(7);
  const auto logits = (torch::randn({5, 999}) * 4.0).to(torch::kBFloat16);
  const auto forbidden = torch::tensor({0, 1}, torch::kLong);
  const auto got = greedy_choice(logits, forbidden);
  const auto [best, token] = reference(logits.to(torch::kFloat), forbidden);
  EXPECT_TRUE(torch::equal(got.token, token));
  EXPECT_TRUE(torch::allclose(got.log_prob.to(torch::kDouble), best, 1e-5, 1e-5));
}

TEST(ModelGreedyChoice, WithGradientsItIsTheTensorForm) {
  auto logits = torch::randn({2, 20}, torch::requires_grad());
  const auto got = greedy_choice(logits, torch::tensor({0}, torch::kLong));
  EXPECT_TRUE(got.log_prob.requires_grad());
  expect_equal(logits.detach(), torch::tensor({0}, torch::kLong));
}

TEST(ModelGreedyChoice, ForbiddenIdsOutsideTheVocabularyOrAllOfItAreRefused) {
  EXPECT_THROW(greedy_choice(torch::randn({1, 10}), torch::tensor({10}, torch::kLong)), c10::Error);
  EXPECT_THROW(greedy_choice(torch::randn({1, 2}), torch::tensor({1, 0}, torch::kLong)),
               c10::Error);
}

}  // namespace
}  // namespace atento::model
