// Precision (app/common/precision.h): auto resolves to bf16 only on a CPU with native bfloat16, the
// guard turns CPU autocast on and restores it, bf16 decoding multiplies several rows by cached
// bf16 weights (model/projection.h) and gets autocast's own result while a single row stays an
// fp32 matrix-vector product, and a memorised model still decodes its pairs in bf16, by greedy
// search and by the continuous-batching stream. int8 is a decoding choice: auto picks it only
// for decoding, where the CPU has int8 dot products and no native bfloat16; a memorised model's
// int8 logits stay close to fp32 and it decodes its pairs in int8, by search and by the stream.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <fstream>
#include <map>
#include <string>
#include <vector>

#include "app/common/precision.h"
#include "model/greedy_stream.h"
#include "model/projection.h"
#include "model/search.h"
#include "tests/unit/test_model_util.h"

namespace atento {
namespace {

const torch::Device kCpu(torch::kCPU);

TEST(AppPrecision, AutoIsBf16OnlyOnACpuWithNativeBf16) {
  const torch::Device cuda(torch::kCUDA);
  EXPECT_EQ(resolve_precision(Precision::kFp32, kCpu), Precision::kFp32);
  EXPECT_EQ(resolve_precision(Precision::kBf16, kCpu), Precision::kBf16);
  EXPECT_EQ(resolve_precision(Precision::kBf16, cuda), Precision::kBf16);
  EXPECT_EQ(resolve_precision(Precision::kAuto, cuda), Precision::kFp32);
  EXPECT_EQ(resolve_precision(Precision::kAuto, kCpu),
            cpu_has_native_bf16() ? Precision::kBf16 : Precision::kFp32);
  EXPECT_STREQ(precision_name(Precision::kBf16), "bf16");
  EXPECT_STREQ(precision_name(Precision::kFp32), "fp32");
  EXPECT_STREQ(precision_name(Precision::kInt8), "int8");
}

TEST(AppPrecision, AutoDecodesInBf16ElseInt8WithAtentosKernelElseFp32) {
  EXPECT_EQ(auto_decoding_precision(true, true, true), Precision::kBf16);
  EXPECT_EQ(auto_decoding_precision(true, false, false), Precision::kBf16);
  EXPECT_EQ(auto_decoding_precision(false, true, true), Precision::kInt8);
  EXPECT_EQ(auto_decoding_precision(false, true, false), Precision::kFp32) << "no engine";
  EXPECT_EQ(auto_decoding_precision(false, false, true), Precision::kFp32)
      << "no kernel of Atento's";
  const torch::Device cuda(torch::kCUDA);
  EXPECT_EQ(resolve_decoding_precision(Precision::kAuto, cuda), Precision::kFp32);
  EXPECT_EQ(resolve_decoding_precision(Precision::kInt8, kCpu), Precision::kInt8);
  EXPECT_EQ(resolve_decoding_precision(Precision::kFp32, kCpu), Precision::kFp32);
  EXPECT_EQ(
      resolve_decoding_precision(Precision::kAuto, kCpu),
      auto_decoding_precision(cpu_has_native_bf16(), cpu_has_int8_dot(), model::int8_supported()))
      << "auto decodes as this CPU's flags say";
  EXPECT_NE(resolve_precision(Precision::kAuto, kCpu), Precision::kInt8)
      << "training's auto never picks int8";
}

TEST(AppPrecision, TheDecodingGuardTurnsInt8OnOnlyForInt8) {
  torch::NoGradGuard no_grad;
  {
    DecodingPrecisionGuard int8(Precision::kInt8, kCpu);
    EXPECT_TRUE(model::int8_decoding());
    EXPECT_FALSE(model::bf16_decoding());
  }
  EXPECT_FALSE(model::int8_decoding());
  {
    DecodingPrecisionGuard bf16(Precision::kBf16, kCpu);
    EXPECT_FALSE(model::int8_decoding());
    EXPECT_TRUE(model::bf16_decoding());
  }
  DecodingPrecisionGuard fp32(Precision::kFp32, kCpu);
  EXPECT_FALSE(model::int8_decoding());
  EXPECT_FALSE(model::bf16_decoding());
}

TEST(AppPrecision, NativeBf16AgreesWithTheKernelsCpuFlags) {
  std::ifstream cpuinfo("/proc/cpuinfo");
  std::string line;
  while (std::getline(cpuinfo, line) && line.rfind("flags", 0) != 0) {
  }
  if (line.rfind("flags", 0) != 0) GTEST_SKIP() << "no flags line in /proc/cpuinfo";
  const bool listed = (line + " ").find(" avx512_bf16 ") != std::string::npos;
  EXPECT_EQ(cpu_has_native_bf16(), listed);
}

TEST(AppPrecision, TheGuardTurnsCpuAutocastOnAndRestoresIt) {
  torch::NoGradGuard no_grad;
  EXPECT_FALSE(model::bf16_decoding());
  {
    AutocastGuard outer(Precision::kBf16, kCpu);
    EXPECT_TRUE(model::bf16_decoding());
    {
      AutocastGuard inner(Precision::kFp32, kCpu);  // fp32 inside bf16 changes nothing
      EXPECT_TRUE(model::bf16_decoding());
    }
    EXPECT_TRUE(model::bf16_decoding());
  }
  EXPECT_FALSE(model::bf16_decoding());
  {
    AutocastGuard automatic(Precision::kAuto, kCpu);
    EXPECT_EQ(model::bf16_decoding(), cpu_has_native_bf16());
  }
  EXPECT_FALSE(model::bf16_decoding());
  torch::AutoGradMode training(true);
  AutocastGuard bf16(Precision::kBf16, kCpu);
  EXPECT_FALSE(model::bf16_decoding()) << "training is not decoding";
}

TEST(AppPrecision, Bf16DecodingMultipliesByCachedBf16WeightsAsAutocastWould) {
  torch::manual_seed(7);
  auto weight = torch::randn({50, 8});  // [V,D]
  auto bias = torch::randn({50});       // [V]
  model::WeightCache cache;
  torch::NoGradGuard no_grad;
  AutocastGuard bf16(Precision::kBf16, kCpu);
  for (auto sizes : std::vector<std::vector<int64_t>>{{2, 8}, {7, 8}, {3, 4, 8}}) {
    auto hidden = torch::randn(sizes);
    auto got = model::project(hidden, weight, bias, &cache);
    auto want = torch::linear(hidden, weight, bias);  // autocast casts all three
    ASSERT_EQ(got.scalar_type(), torch::kBFloat16);
    ASSERT_EQ(got.sizes(), want.sizes());
    EXPECT_TRUE(torch::equal(got, want)) << hidden.sizes();
    EXPECT_TRUE(
        torch::equal(model::project(hidden.to(torch::kBFloat16), weight, bias, &cache), want))
        << "bf16 input (the output of a previous bf16 layer)";
  }
  auto hidden = torch::randn({5, 8});
  auto before = model::project(hidden, weight, bias, &cache);
  weight.mul_(2.0);  // same storage, new version: the bf16 copy must follow
  auto after = model::project(hidden, weight, bias, &cache);
  EXPECT_TRUE(torch::equal(after, torch::linear(hidden, weight, bias)));
  EXPECT_FALSE(torch::equal(after, before));
}

TEST(AppPrecision, ASingleRowStaysAnFp32MatrixVectorProductUnderBf16Decoding) {
  torch::manual_seed(8);
  auto weight = torch::randn({50, 8});  // [V,D]
  auto bias = torch::randn({50});       // [V]
  auto hidden = torch::randn({1, 1, 8});
  model::WeightCache cache;
  torch::NoGradGuard no_grad;
  const auto fp32 = torch::linear(hidden, weight, bias);
  AutocastGuard bf16(Precision::kBf16, kCpu);
  const auto got = model::project(hidden, weight, bias, &cache);
  EXPECT_EQ(got.scalar_type(), torch::kFloat);
  ASSERT_EQ(got.sizes(), fp32.sizes());
  EXPECT_TRUE(torch::allclose(got, fp32, 1e-5, 1e-5));
  EXPECT_FALSE(
      torch::allclose(torch::linear(hidden, weight, bias).to(torch::kFloat), fp32, 1e-5, 1e-5))
      << "autocast's own product is bf16, so the fp32 path is what the test above saw";
  const auto from_bf16 = model::project(hidden.to(torch::kBFloat16), weight, bias, &cache);
  EXPECT_EQ(from_bf16.scalar_type(), torch::kFloat);
}

model::SearchOptions memorised_search() {
  model::SearchOptions options;
  options.beam = 1;
  options.length_penalty = 1.0;
  options.bos_id = model::testing::kBos;
  options.eos_id = model::testing::kEos;
  return options;
}

/// Every source of `sources` decoded through one greedy stream, by its index.
std::map<uint64_t, model::Hypothesis> streamed_hypotheses(
    model::Seq2Seq& net, const std::vector<std::vector<int64_t>>& sources) {
  model::GreedyStream stream(net, memorised_search());
  std::vector<uint64_t> tags(sources.size());
  for (size_t i = 0; i < tags.size(); ++i) tags[i] = i;
  stream.add(sources, tags);
  std::map<uint64_t, model::Hypothesis> streamed;
  for (int step = 0; step < 100 && stream.active() > 0; ++step) {
    for (auto& [tag, hypothesis] : stream.step()) streamed[tag] = hypothesis;
  }
  return streamed;
}

TEST(AppPrecision, AMemorisedModelDecodesItsPairsInBf16) {
  torch::manual_seed(43);
  model::Seq2Seq net(model::testing::memorisation_options(/*encoder_layers=*/1, 16));
  const auto pairs = model::testing::random_pairs(8, 20, 20, 2, 7);
  ASSERT_EQ(model::testing::memorise(net, model::testing::teacher_batch(pairs), 250, 3e-3), 1.0);
  net->eval();
  torch::NoGradGuard no_grad;
  AutocastGuard bf16(Precision::kBf16, kCpu);
  const auto greedy =
      model::greedy_search(net, model::testing::pad_rows(pairs.src), memorised_search());
  const auto streamed = streamed_hypotheses(net, pairs.src);
  ASSERT_EQ(streamed.size(), pairs.src.size());
  for (size_t i = 0; i < pairs.src.size(); ++i) {
    EXPECT_EQ(greedy.at(i).at(0).tokens, pairs.tgt[i]) << "greedy search, pair " << i;
    EXPECT_EQ(streamed.at(i).tokens, pairs.tgt[i]) << "stream, pair " << i;
  }
}

TEST(AppPrecision, AMemorisedModelDecodesItsPairsInInt8CloseToFp32) {
  if (!model::int8_supported()) GTEST_SKIP() << "no quantized engine in this LibTorch";
  torch::manual_seed(43);
  model::Seq2Seq net(model::testing::memorisation_options(/*encoder_layers=*/1, 16));
  const auto pairs = model::testing::random_pairs(8, 20, 20, 2, 7);
  const auto batch = model::testing::teacher_batch(pairs);
  ASSERT_EQ(model::testing::memorise(net, batch, 250, 3e-3), 1.0);
  net->eval();
  torch::NoGradGuard no_grad;
  const auto fp32 = net->forward(batch.src, batch.tgt_in);  // [B,T,V]
  torch::Tensor int8_logits;
  {
    DecodingPrecisionGuard int8(Precision::kInt8, kCpu);
    int8_logits = net->forward(batch.src, batch.tgt_in);
  }
  ASSERT_EQ(int8_logits.sizes(), fp32.sizes());
  const double spread = (fp32.amax(-1) - fp32.amin(-1)).max().item<double>();
  const double error = (int8_logits - fp32).abs().max().item<double>();
  EXPECT_LT(error, 0.05 * spread) << "int8 logits within 5% of the fp32 logits' range";
  EXPECT_GT(error, 0.0) << "the int8 path really ran";
  DecodingPrecisionGuard int8(Precision::kInt8, kCpu);
  const auto greedy =
      model::greedy_search(net, model::testing::pad_rows(pairs.src), memorised_search());
  const auto streamed = streamed_hypotheses(net, pairs.src);
  ASSERT_EQ(streamed.size(), pairs.src.size());
  for (size_t i = 0; i < pairs.src.size(); ++i) {
    EXPECT_EQ(greedy.at(i).at(0).tokens, pairs.tgt[i]) << "greedy search, pair " << i;
    EXPECT_EQ(streamed.at(i).tokens, greedy.at(i).at(0).tokens) << "stream, pair " << i;
  }
}

}  // namespace
}  // namespace atento
