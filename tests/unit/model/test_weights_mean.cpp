// Checkpoint averaging: the mean of several weights files, parameter by parameter, in the first
// file's element type; files of another architecture are refused by name.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "model/weights_mean.h"
#include "tests/unit/test_model_util.h"

namespace atento::model {
namespace {

using testing::save_weights;
using testing::write_bytes;

/// A weights file in the temporary directory, removed with the object.
struct TempWeights {
  std::string path;
  explicit TempWeights(const std::string& name)
      : path((std::filesystem::temp_directory_path() /
              ("atento_test_average_" + std::to_string(::getpid()) + "_" + name))
                 .string()) {}
  ~TempWeights() { std::remove(path.c_str()); }
};

torch::nn::Linear linear(uint64_t seed, int64_t in = 4, int64_t out = 3) {
  torch::manual_seed(seed);
  return torch::nn::Linear(in, out);
}

std::string error_of(const std::vector<std::string>& paths) {
  try {
    average_weights_files(paths);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(CheckpointAverage, IsTheMeanOfEveryParameter) {
  TempWeights a("a.pt"), b("b.pt"), c("c.pt");
  auto la = linear(1), lb = linear(2), lc = linear(3);
  save_weights(*la, a.path);
  save_weights(*lb, b.path);
  save_weights(*lc, c.path);
  const auto mean = average_weights_files({a.path, b.path, c.path});
  ASSERT_EQ(mean.size(), 2u);
  for (const char* name : {"weight", "bias"}) {
    const auto expected = (la->named_parameters()[name] + lb->named_parameters()[name] +
                           lc->named_parameters()[name]) /
                          3;
    EXPECT_TRUE(torch::allclose(mean.at(name), expected, 1e-6, 1e-7)) << name;
    EXPECT_EQ(mean.at(name).scalar_type(), torch::kFloat32) << name;
  }
  // One file averages to itself, bit for bit.
  const auto one = average_weights_files({b.path});
  EXPECT_TRUE(torch::equal(one.at("weight"), lb->weight.detach()));
}

TEST(CheckpointAverage, KeepsTheFirstFilesElementType) {
  TempWeights a("a.pt"), b("b.pt");
  NamedTensors wa{{"w", torch::full({2}, 1.0, torch::kBFloat16)}};
  NamedTensors wb{{"w", torch::full({2}, 1.0078125, torch::kBFloat16)}};  // next bf16 after 1
  write_bytes(a.path, serialize_weights(wa));
  write_bytes(b.path, serialize_weights(wb));
  const auto mean = average_weights_files({a.path, b.path, b.path, b.path});
  EXPECT_EQ(mean.at("w").scalar_type(), torch::kBFloat16);
  // (1 + 3 × 1.0078125) / 4 = 1.005859375, which bf16 rounds to 1.0078125.
  EXPECT_EQ(mean.at("w")[0].item<float>(), 1.0078125f);
}

TEST(CheckpointAverage, RefusesFilesOfAnotherArchitectureByName) {
  TempWeights a("a.pt"), b("b.pt"), c("c.pt");
  save_weights(*linear(1), a.path);
  save_weights(*linear(2, 5, 3), b.path);
  auto message = error_of({a.path, b.path});
  EXPECT_NE(message.find(b.path), std::string::npos) << message;
  EXPECT_NE(message.find("'weight'"), std::string::npos) << message;
  EXPECT_NE(message.find("[3, 5]"), std::string::npos) << message;
  write_bytes(c.path, serialize_weights(NamedTensors{{"weight", torch::zeros({3, 4})}}));
  message = error_of({a.path, c.path});
  EXPECT_NE(message.find("'bias'"), std::string::npos) << message;
  EXPECT_NE(message.find("missing"), std::string::npos) << message;
  message = error_of({c.path, a.path});
  EXPECT_NE(message.find("'bias' is not in " + c.path), std::string::npos) << message;
  EXPECT_THROW(average_weights_files({}), std::invalid_argument);
}

}  // namespace
}  // namespace atento::model
