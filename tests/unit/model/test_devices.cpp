// The model's invariants on every device this machine has: masks, cached = uncached decoding,
// save/load across devices, and CPU-vs-CUDA agreement on the same weights. The CUDA cases are
// skipped, saying so, where LibTorch sees no CUDA device.

#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <filesystem>
#include <string>

#include "model/attention.h"
#include "model/checkpoint.h"
#include "model/search.h"
#include "model/seq2seq.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::pad_rows;
using testing::small_options;

class ModelDevices : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    if (device().is_cuda() && !torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  }
  torch::Device device() const { return torch::Device(GetParam()); }
  /// Whether a tensor lies on the parameter's device ("cuda" matches any CUDA index).
  ::testing::AssertionResult on_device(const torch::Tensor& t) const {
    bool same = t.device().type() == device().type() &&
                (!device().has_index() || t.device().index() == device().index());
    if (same) return ::testing::AssertionSuccess();
    return ::testing::AssertionFailure() << "on " << t.device() << ", expected " << device();
  }
  /// A small model with fixed weights, in eval mode, on the parameter's device.
  Seq2Seq model_on_device(Norm norm = Norm::kPost) const {
    torch::manual_seed(7);
    Seq2Seq model(small_options(norm));  // initialised on the CPU: the same weights anywhere
    model->to(device());
    model->eval();
    return model;
  }
  torch::Tensor rows(const std::vector<std::vector<int64_t>>& ids) const {
    return pad_rows(ids).to(device());
  }
};

TEST_P(ModelDevices, CausalMaskIsLowerTriangularOnTheDevice) {
  auto mask = causal_mask(4, device());
  EXPECT_TRUE(on_device(mask));
  EXPECT_TRUE(torch::equal(mask.cpu(), torch::ones({4, 4}, torch::kBool).tril()));
}

TEST_P(ModelDevices, FutureTargetTokensNeverChangeEarlierLogits) {
  auto model = model_on_device();
  torch::NoGradGuard no_grad;
  auto src = rows({{4, 5, 6, 7}, {8, 9}});
  auto tgt = rows({{1, 5, 6, 7, 8, 9}, {1, 10, 11, 12, 13, 14}});
  auto logits = model(src, tgt);  // [B,T,V]
  EXPECT_TRUE(on_device(logits));
  for (int64_t t = 0; t < 5; ++t) {
    auto changed = tgt.clone();
    changed.narrow(1, t + 1, 6 - t - 1).random_(3, 29);
    auto other = model(src, changed);
    EXPECT_TRUE(torch::allclose(other.narrow(1, 0, t + 1), logits.narrow(1, 0, t + 1), 0.0, 1e-5))
        << "position " << t;
  }
}

TEST_P(ModelDevices, PaddingLeavesRealPositionsUnchanged) {
  auto model = model_on_device();
  torch::NoGradGuard no_grad;
  auto tgt = rows({{1, 5, 6, 7}, {1, 10}});
  auto logits = model(rows({{4, 5, 6, 7}, {8, 9}}), tgt);
  auto padded = model(pad_rows({{4, 5, 6, 7}, {8, 9}}, 9).to(device()), tgt);
  EXPECT_TRUE(torch::allclose(padded, logits, 0.0, 1e-4));
}

TEST_P(ModelDevices, CachedDecodeStepsEqualForwardAndUncachedSteps) {
  auto model = model_on_device(Norm::kPre);
  torch::NoGradGuard no_grad;
  auto src = rows({{4, 5, 6, 7, 8, 9}, {10, 11}, {12, 13, 14, 15}});
  auto tgt =
      rows({{1, 5, 6, 7, 8, 9, 10}, {1, 11, 12, 13, 14, 15, 16}, {1, 17, 18, 19, 20, 21, 22}});
  testing::expect_cached_steps_match(model, src, tgt, 1e-4);
}

TEST_P(ModelDevices, CachedAndUncachedBeamSearchGiveIdenticalTokens) {
  auto model = model_on_device();
  SearchOptions options;
  options.beam = 3;
  options.n_best = 3;
  options.bos_id = testing::kBos;
  options.eos_id = testing::kEos;
  auto src = rows({{4, 5, 6, 7, 8, 9}, {10}, {12, 13, 14, 15}});
  const auto cached = translate_batch(model, src, options);
  options.use_cache = false;
  const auto uncached = translate_batch(model, src, options);
  ASSERT_EQ(cached.size(), uncached.size());
  for (size_t i = 0; i < cached.size(); ++i) {
    ASSERT_EQ(cached[i].size(), uncached[i].size());
    for (size_t j = 0; j < cached[i].size(); ++j) {
      EXPECT_EQ(cached[i][j].tokens, uncached[i][j].tokens) << "sentence " << i;
    }
  }
}

TEST_P(ModelDevices, WeightsSavedOnTheDeviceLoadOnTheCpuAndBack) {
  auto model = model_on_device();
  const auto path = (std::filesystem::temp_directory_path() /
                     ("atento_test_devices_" + std::to_string(::getpid()) + ".pt"))
                        .string();
  testing::save_weights(*model, path);
  torch::manual_seed(99);
  Seq2Seq on_cpu(small_options());  // other initial weights
  on_cpu->eval();
  load_weights(*on_cpu, path);
  Seq2Seq back(small_options());
  back->to(device());
  back->eval();
  load_weights(*back, path);
  std::filesystem::remove(path);
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6}, {8}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 10}});
  auto reference = model(src.to(device()), tgt.to(device()));
  EXPECT_TRUE(torch::equal(back(src.to(device()), tgt.to(device())), reference));
  // Another device's arithmetic: equal within rounding, not bit for bit.
  EXPECT_TRUE(torch::allclose(on_cpu(src, tgt), reference.cpu(), 1e-4, 1e-4));
}

INSTANTIATE_TEST_SUITE_P(Devices, ModelDevices, ::testing::Values("cpu", "cuda"),
                         [](const auto& info) { return info.param; });

TEST(ModelDevicesAgreement, CpuAndCudaGiveTheSameLogitsOnTheSameWeights) {
  if (!torch::cuda::is_available()) GTEST_SKIP() << "no CUDA device";
  torch::manual_seed(5);
  Seq2Seq cpu(small_options(Norm::kPre));
  cpu->eval();
  torch::manual_seed(6);
  Seq2Seq cuda(small_options(Norm::kPre));
  auto bytes = serialize_weights(*cpu);
  const auto path = (std::filesystem::temp_directory_path() /
                     ("atento_test_agree_" + std::to_string(::getpid()) + ".pt"))
                        .string();
  testing::write_bytes(path, bytes);
  cuda->to(torch::kCUDA);
  cuda->eval();
  load_weights(*cuda, path);
  std::filesystem::remove(path);
  torch::NoGradGuard no_grad;
  auto src = pad_rows({{4, 5, 6, 7, 8, 9}, {10, 11}});
  auto tgt = pad_rows({{1, 5, 6, 7}, {1, 11, 12}});
  auto on_cpu = cpu(src, tgt);
  auto on_cuda = cuda(src.cuda(), tgt.cuda()).cpu();
  EXPECT_TRUE(torch::allclose(on_cuda, on_cpu, 1e-4, 1e-4))
      << "largest difference " << (on_cuda - on_cpu).abs().max().item<float>();
}

}  // namespace
}  // namespace atento::model
