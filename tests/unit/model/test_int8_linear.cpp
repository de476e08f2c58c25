// int8 dense layers (model/int8_linear.h): the product with int8 weights and per-row quantised
// input stays close to fp32, a row's result is the same alone or in any batch, and project()
// multiplies by the cached int8 weight only while this thread decodes in int8 without
// gradients, following the weight when it changes.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "model/int8_linear.h"
#include "model/projection.h"

namespace atento::model {
namespace {

// Rows of very different magnitudes, one of them zero: a single scale for all would lose the
// small rows.
torch::Tensor uneven_rows(int64_t rows, int64_t width) {
  auto x = torch::randn({rows, width}) * torch::logspace(-2, 2, rows).unsqueeze(1);
  x[0].zero_();
  return x;
}

// The largest error of each row relative to that row's largest fp32 magnitude.
double worst_row_error(const torch::Tensor& got, const torch::Tensor& want) {
  auto scale = want.abs().amax(-1).clamp_min(1e-6);
  return ((got - want).abs().amax(-1) / scale).max().item<double>();
}

TEST(Int8Linear, MatchesFp32WithinATolerance) {
  if (!int8_supported()) GTEST_SKIP() << "no quantized engine in this LibTorch";
  torch::manual_seed(3);
  auto weight = torch::randn({40, 32}) * 0.2;  // [V,D]
  auto bias = torch::randn({40});
  Int8Weight packed(weight);
  auto x = uneven_rows(9, 32);
  torch::NoGradGuard no_grad;
  auto got = int8_linear(x, packed, bias);
  auto want = torch::linear(x, weight, bias);
  ASSERT_EQ(got.sizes(), want.sizes());
  EXPECT_LT(worst_row_error(got.narrow(0, 1, 8) - bias, want.narrow(0, 1, 8) - bias), 0.03);
  EXPECT_TRUE(torch::allclose(got[0], bias)) << "a zero row gives the bias";
  EXPECT_FALSE(torch::allclose(got, want, 1e-6, 1e-6)) << "the product really is int8";
  auto no_bias = int8_linear(x.view({3, 3, 32}), packed, torch::Tensor());
  ASSERT_EQ(no_bias.sizes(), (std::vector<int64_t>{3, 3, 40}));
  EXPECT_TRUE(torch::allclose(no_bias.view({9, 40}), got - bias, 1e-5, 1e-5));
}

TEST(Int8Linear, ARowGetsTheSameResultAloneOrInABatch) {
  if (!int8_supported()) GTEST_SKIP() << "no quantized engine in this LibTorch";
  torch::manual_seed(4);
  auto weight = torch::randn({24, 16});
  auto bias = torch::randn({24});
  Int8Weight packed(weight);
  auto x = uneven_rows(6, 16);
  torch::NoGradGuard no_grad;
  auto batch = int8_linear(x, packed, bias);
  for (int64_t i = 0; i < x.size(0); ++i) {
    EXPECT_TRUE(torch::equal(int8_linear(x.narrow(0, i, 1), packed, bias)[0], batch[i]))
        << "row " << i;
  }
  EXPECT_TRUE(torch::equal(int8_linear(x.narrow(0, 2, 3), packed, bias), batch.narrow(0, 2, 3)));
}

TEST(Int8Linear, ProjectUsesTheInt8WeightOnlyWhileDecodingInInt8) {
  if (!int8_supported()) GTEST_SKIP() << "no quantized engine in this LibTorch";
  torch::manual_seed(5);
  auto weight = torch::randn({30, 8});
  auto bias = torch::randn({30});
  auto hidden = torch::randn({2, 3, 8});
  WeightCache cache;
  torch::NoGradGuard no_grad;
  const auto fp32 = torch::linear(hidden, weight, bias);
  EXPECT_FALSE(int8_decoding());
  EXPECT_TRUE(torch::allclose(project(hidden, weight, bias, &cache), fp32, 1e-5, 1e-5));
  Int8DecodingScope int8(true);
  EXPECT_TRUE(int8_decoding());
  {
    Int8DecodingScope off(false);  // does not turn it off, restores it on exit
    EXPECT_TRUE(int8_decoding());
  }
  const auto want = int8_linear(hidden, Int8Weight(weight), bias);
  EXPECT_TRUE(torch::equal(project(hidden, weight, bias, &cache), want));
  EXPECT_TRUE(
      torch::equal(project(hidden[0][1].view({1, 1, 8}), weight, bias, &cache)[0][0], want[0][1]))
      << "one row goes through int8 too";
  EXPECT_TRUE(torch::allclose(project(hidden, weight, bias), fp32, 1e-5, 1e-5)) << "no cache: fp32";
  weight.mul_(2.0);  // same storage, new version: the int8 copy must follow
  EXPECT_TRUE(torch::equal(project(hidden, weight, bias, &cache),
                           int8_linear(hidden, Int8Weight(weight), bias)));
  torch::AutoGradMode training(true);
  EXPECT_FALSE(int8_decoding()) << "training is not decoding";
}

TEST(Int8Linear, PadsTheRowsToFewCounts) {
  EXPECT_EQ(padded_rows(1), 8);
  EXPECT_EQ(padded_rows(8), 8);
  EXPECT_EQ(padded_rows(15), 15);
  EXPECT_EQ(padded_rows(17), 18);
  EXPECT_EQ(padded_rows(65), 72);
  EXPECT_EQ(padded_rows(1000), 1024);
  for (int64_t rows = 1; rows < 5000; ++rows) {
    const int64_t padded = padded_rows(rows);
    ASSERT_GE(padded, rows);
    ASSERT_LE(padded, std::max<int64_t>(8, rows + rows / 8)) << rows;
  }
}

}  // namespace
}  // namespace atento::model
