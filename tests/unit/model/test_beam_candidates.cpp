// A beam step's candidates against log_softmax + scores + top-k in double precision.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <cmath>
#include <limits>

#include "model/beam_candidates.h"

namespace atento::model {
namespace {

constexpr float kMinusInf = -std::numeric_limits<float>::infinity();

// scores[r] + log_softmax(logits[r]) in double, forbidden at −inf, top `count` per sentence.
std::pair<torch::Tensor, torch::Tensor> reference(const torch::Tensor& logits,
                                                  const torch::Tensor& scores,
                                                  const torch::Tensor& forbidden, int64_t width,
                                                  int64_t count) {
  const int64_t vocab = logits.size(1), sentences = logits.size(0) / width;
  auto logp =
      torch::log_softmax(logits.to(torch::kDouble), -1).index_fill_(1, forbidden, kMinusInf);
  auto all = (scores.to(torch::kDouble).unsqueeze(1) + logp).view({sentences, width * vocab});
  auto [top, index] = all.topk(std::min(count, width * vocab), 1);
  return {top, index};
}

// The finite candidates equal the reference's (same continuation, value within float
// rounding); the rest are −inf in both.
void expect_equal(const torch::Tensor& logits, const torch::Tensor& scores,
                  const torch::Tensor& forbidden, int64_t width, int64_t count) {
  const auto got = beam_candidates(logits, scores, forbidden, width, count);
  const auto [top, index] = reference(logits, scores, forbidden, width, count);
  ASSERT_EQ(got.count, top.size(1));
  ASSERT_EQ(static_cast<int64_t>(got.values.size()), top.numel());
  const auto* want = top.contiguous().data_ptr<double>();
  const auto* want_index = index.contiguous().data_ptr<int64_t>();
  for (int64_t c = 0; c < top.numel(); ++c) {
    if (std::isinf(want[c])) {
      EXPECT_EQ(got.values[c], kMinusInf) << c;
      continue;
    }
    EXPECT_EQ(got.indices[c], want_index[c]) << c;
    EXPECT_NEAR(got.values[c], want[c], 1e-5 * (1.0 + std::fabs(want[c]))) << c;
  }
}

TEST(ModelBeamCandidates, EqualsTheTensorFormOnAVocabulary) {
  torch::manual_seed(8);
  const auto forbidden = torch::tensor({0, 2}, torch::kLong);
  for (int64_t sentences : {1, 5}) {
    const int64_t width = 4;
    auto logits = torch::randn({sentences * width, 8000}) * 4.0;
    auto scores = -torch::rand({sentences * width}) * 10.0;
    expect_equal(logits, scores, forbidden, width, 8);
  }
}

TEST(ModelBeamCandidates, OneBeamAndOddWidths) {
  torch::manual_seed(9);
  for (int64_t vocab : {9, 17, 1001}) {
    auto logits = torch::randn({3, vocab}) * 3.0;
    auto scores = torch::zeros({3});
    expect_equal(logits, scores, torch::tensor({vocab - 1, int64_t{0}}), 1, 8);
  }
}

TEST(ModelBeamCandidates, FewerAllowedTokensThanCandidatesEndInMinusInfinity) {
  torch::manual_seed(10);
  auto logits = torch::randn({4, 3});  // 2 sentences of 2 beams, 2 allowed tokens a row
  auto scores = torch::tensor({-1.0f, -2.0f, -0.5f, kMinusInf});  // a beam that never wins
  expect_equal(logits, scores, torch::tensor({1}, torch::kLong), 2, 8);
  const auto got = beam_candidates(logits, scores, torch::tensor({1}, torch::kLong), 2, 8);
  EXPECT_EQ(got.count, 6);  // min(8, 2 beams · 3 tokens)
  EXPECT_EQ(got.values[4], kMinusInf);
  EXPECT_EQ(got.values[6 + 2], kMinusInf);  // the second sentence's −inf beam comes last
}

TEST(ModelBeamCandidates, EqualValuesComeInIndexOrder) {
  auto logits = torch::zeros({2, 10});  // one sentence of two beams, every logit equal
  auto scores = torch::zeros({2});
  const auto got = beam_candidates(logits, scores, torch::tensor({0}, torch::kLong), 2, 4);
  EXPECT_EQ(got.indices, (std::vector<int64_t>{1, 2, 3, 4}));
}

TEST(ModelBeamCandidates, BFloat16LogitsAndGradientsTakeTheirPaths) {
  torch::manual_seed(11);
  auto logits = (torch::randn({8, 500}) * 4.0).to(torch::kBFloat16);
  auto scores = -torch::rand({8});
  const auto forbidden = torch::tensor({0}, torch::kLong);
  expect_equal(logits.to(torch::kFloat), scores, forbidden, 4, 8);
  const auto got = beam_candidates(logits, scores, forbidden, 4, 8);
  const auto want = beam_candidates(logits.to(torch::kFloat), scores, forbidden, 4, 8);
  EXPECT_EQ(got.indices, want.indices);
  auto trained = torch::randn({4, 50}, torch::requires_grad());
  expect_equal(trained.detach(), torch::zeros({4}), forbidden, 2, 4);
  const auto tensor_form = beam_candidates(trained, torch::zeros({4}), forbidden, 2, 4);
  EXPECT_EQ(tensor_form.indices,
            beam_candidates(trained.detach(), torch::zeros({4}), forbidden, 2, 4).indices);
}

TEST(ModelBeamCandidates, BadShapesAreRefused) {
  EXPECT_THROW(beam_candidates(torch::randn({3, 10}), torch::zeros({3}), torch::tensor({0}), 2, 4),
               c10::Error);
  EXPECT_THROW(beam_candidates(torch::randn({2, 10}), torch::zeros({3}), torch::tensor({0}), 2, 4),
               c10::Error);
}

}  // namespace
}  // namespace atento::model
