// int8 dense layers (model/int8_linear.h): the product with int8 weights and per-row quantised
// input stays close to fp32 with every kernel (Atento's in AVX512-VNNI and in AVX2, LibTorch's
// quantized engine), Atento's computes exactly its documented arithmetic at any shape (the AVX2
// one without saturating at the extremes), a row's
// result is the same alone or in any batch and with any number of threads, and project()
// multiplies by the cached int8 weight only while this thread decodes in int8 without
// gradients, following the weight when it changes.

#include <ATen/Parallel.h>
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "model/int8_gemm.h"
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

// Atento's kernels that run here.
std::vector<Int8Kernel> own_kernels() {
  std::vector<Int8Kernel> found;
  if (int8_isa_supported(Int8Isa::kAvx512Vnni)) found.push_back(Int8Kernel::kVnni);
  if (int8_isa_supported(Int8Isa::kAvx2)) found.push_back(Int8Kernel::kAvx2);
  return found;
}

// Every kernel that runs here: Atento's, and LibTorch's where it has a quantized engine.
std::vector<Int8Kernel> kernels() {
  std::vector<Int8Kernel> found = own_kernels();
  try {
    Int8Weight probe(torch::ones({1, 1}), Int8Kernel::kQuantizedEngine);
    found.push_back(Int8Kernel::kQuantizedEngine);
  } catch (const c10::Error&) {
  }
  return found;
}

TEST(Int8Linear, AutoPicksAtentosKernelInTheWidestInstructionSetHere) {
  if (!int8_supported()) GTEST_SKIP() << "no int8 kernel here";
  const auto want = int8_isa_supported(Int8Isa::kAvx512Vnni) ? Int8Kernel::kVnni
                    : int8_isa_supported(Int8Isa::kAvx2)     ? Int8Kernel::kAvx2
                                                             : Int8Kernel::kQuantizedEngine;
  EXPECT_EQ(auto_int8_kernel(), want);
  EXPECT_EQ(Int8Weight(torch::ones({2, 2})).kernel(), want);
}

TEST(Int8Linear, MatchesFp32WithinATolerance) {
  for (const auto kernel : kernels()) {
    SCOPED_TRACE(int8_kernel_name(kernel));
    torch::manual_seed(3);
    auto weight = torch::randn({40, 32}) * 0.2;  // [V,D]
    auto bias = torch::randn({40});
    Int8Weight packed(weight, kernel);
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
}

TEST(Int8Linear, ARowGetsTheSameResultAloneOrInABatch) {
  for (const auto kernel : kernels()) {
    SCOPED_TRACE(int8_kernel_name(kernel));
    torch::manual_seed(4);
    // 70 rows and 100 channels: more rows than Atento's kernel's chunk of 64 and its tiles of
    // 4, a partial tile of channels
    auto weight = torch::randn({100, 16});
    auto bias = torch::randn({100});
    Int8Weight packed(weight, kernel);
    auto x = uneven_rows(70, 16);
    torch::NoGradGuard no_grad;
    auto batch = int8_linear(x, packed, bias);
    for (int64_t i = 0; i < x.size(0); ++i) {
      ASSERT_TRUE(torch::equal(int8_linear(x.narrow(0, i, 1), packed, bias)[0], batch[i]))
          << "row " << i;
    }
    EXPECT_TRUE(torch::equal(int8_linear(x.narrow(0, 2, 3), packed, bias), batch.narrow(0, 2, 3)));
    EXPECT_TRUE(
        torch::equal(int8_linear(x.narrow(0, 61, 7), packed, bias), batch.narrow(0, 61, 7)));
  }
}

// What Atento's kernel promises (model/int8_gemm.h), computed with plain tensors: weights
// rounded per output channel, rows rounded per row, exact integer sums, then the scales.
torch::Tensor kernel_reference(const torch::Tensor& x, const torch::Tensor& w,
                               const torch::Tensor& bias) {
  auto s = w.abs().amax(1).clamp_min(1e-12) / 127.0;  // [V]
  auto wq = torch::round(w / s.unsqueeze(1)).clamp(-127, 127).to(torch::kDouble);
  auto amax = x.abs().amax(1, /*keepdim=*/true);  // [N,1]
  auto inverse = torch::where(amax > 1e-30, 127.0f / amax, torch::zeros_like(amax));
  auto xq = torch::round(x * inverse).to(torch::kDouble);
  auto sums = torch::mm(xq, wq.t()).to(torch::kFloat);  // exact: integers below 2^24
  auto t = torch::where(amax > 1e-30, amax / 127.0f, torch::zeros_like(amax));
  return sums * (s.unsqueeze(0) * t) + bias;
}

TEST(Int8Linear, AtentosKernelComputesItsArithmeticAtAnyShape) {
  if (own_kernels().empty()) GTEST_SKIP() << "neither AVX512-VNNI nor AVX2 on this CPU";
  for (const auto kernel : own_kernels()) {
    SCOPED_TRACE(int8_kernel_name(kernel));
    torch::manual_seed(6);
    torch::NoGradGuard no_grad;
    // widths that are not multiples of 4 (D), 8 or 16 (V), channels in 1–5 blocks, 1–13 rows
    for (const auto& [v, d] : std::vector<std::pair<int64_t, int64_t>>{
             {1, 1}, {16, 4}, {37, 23}, {64, 64}, {80, 130}, {200, 257}, {9, 7}}) {
      auto weight = torch::randn({v, d}) * 0.1;
      auto bias = torch::randn({v});
      Int8Weight packed(weight, kernel);
      for (int64_t n = 1; n <= 13; n += 3) {
        auto x = uneven_rows(n, d);
        auto got = int8_linear(x, packed, bias);
        auto want = kernel_reference(x, weight, bias);
        ASSERT_EQ(got.sizes(), want.sizes());
        EXPECT_TRUE(torch::allclose(got, want, 1e-5, 1e-4))
            << v << "x" << d << ", " << n << " rows: " << (got - want).abs().max().item<float>();
      }
    }
  }
}

// The AVX2 kernel's pair sums at their largest: every X and W at ±127, of both signs. An
// unsigned-by-signed product of X + 128 (as VNNI takes it) would saturate vpmaddubsw here.
TEST(Int8Linear, TheAvx2KernelDoesNotSaturateAtTheExtremes) {
  if (!int8_isa_supported(Int8Isa::kAvx2)) GTEST_SKIP() << "no AVX2 on this CPU";
  torch::NoGradGuard no_grad;
  const int64_t d = 64;
  auto signs = torch::ones({d});
  signs.narrow(0, 0, d / 2).fill_(-1.0);  // half negative
  auto weight = torch::stack({signs, -signs, torch::ones({d}), -torch::ones({d})});   // [4,D]
  auto x = torch::stack({signs, -signs, torch::ones({d}), -torch::ones({d})}) * 3.0;  // [4,D]
  Int8Weight packed(weight, Int8Kernel::kAvx2);
  auto got = int8_linear(x, packed, torch::Tensor());
  auto want = torch::linear(x, weight);  // ±3 · 64 and 0: exact after the scales
  EXPECT_TRUE(torch::allclose(got, want, 1e-5, 1e-5)) << got << want;
  EXPECT_NEAR(got[0][0].item<float>(), 3.0 * d, 1e-3);
  EXPECT_NEAR(got[0][1].item<float>(), -3.0 * d, 1e-3);
}

TEST(Int8Linear, AtentosKernelsGiveTheSameResultInEitherInstructionSet) {
  if (own_kernels().size() < 2) GTEST_SKIP() << "only one instruction set of the kernel here";
  torch::manual_seed(9);
  torch::NoGradGuard no_grad;
  auto weight = torch::randn({90, 70});
  auto bias = torch::randn({90});
  auto x = uneven_rows(11, 70);
  EXPECT_TRUE(torch::equal(int8_linear(x, Int8Weight(weight, Int8Kernel::kVnni), bias),
                           int8_linear(x, Int8Weight(weight, Int8Kernel::kAvx2), bias)));
}

TEST(Int8Linear, TheKernelsAgree) {
  const auto found = kernels();
  if (found.size() < 2) GTEST_SKIP() << "only one int8 kernel here";
  torch::manual_seed(7);
  torch::NoGradGuard no_grad;
  auto weight = torch::randn({300, 256}) * 0.1;
  auto bias = torch::randn({300});
  auto x = uneven_rows(20, 256);
  auto engine = int8_linear(x, Int8Weight(weight, Int8Kernel::kQuantizedEngine), bias) - bias;
  for (const auto kernel : own_kernels()) {
    SCOPED_TRACE(int8_kernel_name(kernel));
    auto own = int8_linear(x, Int8Weight(weight, kernel), bias) - bias;
    // the engine quantises input rows to 7 bits (int8_linear.cpp), Atento's kernel to 8: each
    // about 0.01 of a row's range from fp32 here; a saturated product is off by 0.1 and more
    EXPECT_LT(worst_row_error(own.narrow(0, 1, 19), engine.narrow(0, 1, 19)), 0.03);
  }
}

TEST(Int8Linear, AtentosKernelGivesTheSameResultOnAnyNumberOfThreads) {
  if (own_kernels().empty()) GTEST_SKIP() << "neither AVX512-VNNI nor AVX2 on this CPU";
  for (const auto kernel : own_kernels()) {
    SCOPED_TRACE(int8_kernel_name(kernel));
    torch::manual_seed(8);
    torch::NoGradGuard no_grad;
    // big enough to be split between threads: 64 rows × 2,000 channels × 256
    auto weight = torch::randn({2000, 256});
    auto bias = torch::randn({2000});
    auto x = uneven_rows(64, 256);
    Int8Weight packed(weight, kernel);
    const int threads = at::get_num_threads();
    at::set_num_threads(1);
    auto one = int8_linear(x, packed, bias);
    at::set_num_threads(4);
    auto four = int8_linear(x, packed, bias);
    at::set_num_threads(threads);
    EXPECT_TRUE(torch::equal(one, four));
    EXPECT_TRUE(torch::allclose(one, kernel_reference(x, weight, bias), 1e-5, 1e-4));
  }
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
