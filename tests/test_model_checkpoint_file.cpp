// Weights files from an untrusted model directory: the file written is read back whole; a
// pickle declaring more bytes than it holds (a 1 KB file that made LibTorch reserve 1.9 GB, found
// by tests/fuzz/fuzz_weights) and a file that is not a weights archive are refused by name.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "model/checkpoint.h"
#include "model/pickle_bounds.h"

namespace atento::model {
namespace {

std::string error_of(const std::string& path) {
  try {
    read_weights(path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(PickleBounds, DeclaredLengthsMustLieWithinTheStream) {
  const std::string ok = "\x80\x02X\x03\x00\x00\x00abc.";
  EXPECT_EQ(pickle_bounds_problem(reinterpret_cast<const uint8_t*>(ok.data()), ok.size()), "");
  const std::string lying(
      "\x80\x02X\xff\xff\xff\x7f"
      "abc.",
      12);
  EXPECT_NE(pickle_bounds_problem(reinterpret_cast<const uint8_t*>(lying.data()), lying.size())
                .find("declares 2147483647 bytes, 4 are left"),
            std::string::npos);
  const std::string no_stop = "\x80\x02N";
  EXPECT_NE(
      pickle_bounds_problem(reinterpret_cast<const uint8_t*>(no_stop.data()), 3).find("no STOP"),
      std::string::npos);
  const std::string unknown = "\x80\x02\xff.";
  EXPECT_NE(pickle_bounds_problem(reinterpret_cast<const uint8_t*>(unknown.data()), 4)
                .find("not a pickle opcode"),
            std::string::npos);
}

TEST(WeightsFile, TheFuzzersOversizedStringIsRefusedBeforeLibTorchReadsIt) {
  const std::string path = std::string(ATENTO_SOURCE_DIR) + "/tests/fuzz/weights/oom_pickle_length";
  const std::string message = error_of(path);
  EXPECT_NE(message.find("data.pkl: opcode 0x58"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(WeightsFile, WrittenWeightsReadBackAndGarbageIsRefused) {
  torch::manual_seed(3);
  torch::nn::Linear linear(4, 3);
  const std::string path = testing::TempDir() + "/atento_weights_" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary) << serialize_weights(*linear);
  const NamedTensors stored = read_weights(path);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_TRUE(torch::equal(stored.at("weight"), linear->weight));
  std::string bytes = read_file(path);
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_NE(error_of(path).find("is not a weights file"), std::string::npos) << error_of(path);
  std::remove(path.c_str());
}

}  // namespace
}  // namespace atento::model
