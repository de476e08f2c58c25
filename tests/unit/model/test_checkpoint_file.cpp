// Weights and optimizer-state files from an untrusted model directory: what is written is read
// back whole; a pickle declaring more bytes than it holds (a 1 KB file that made LibTorch reserve
// 1.9 GB, found by tests/fuzz/fuzz_weights), a pickle whose opcodes consume stack items it does
// not hold, a file that is not a weights archive and a TorchScript archive (the old optimizer
// format, whose importer a corrupted file crashed) are refused by name.
#include <gtest/gtest.h>
#include <torch/torch.h>
#include <unistd.h>

#include <cstdio>
#include <fstream>
#include <iterator>
#include <string>

#include "model/checkpoint.h"
#include "model/pickle_bounds.h"
#include "model/zip_bounds.h"

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

/// A committed input of tests/fuzz/weights/.
std::string fuzz_seed(const std::string& name) {
  return std::string(ATENTO_SOURCE_DIR) + "/tests/fuzz/weights/" + name;
}

/// pickle_bounds_problem over a string's bytes.
std::string pickle_problem(const std::string& pickle) {
  return pickle_bounds_problem(reinterpret_cast<const uint8_t*>(pickle.data()), pickle.size());
}

TEST(PickleBounds, DeclaredLengthsMustLieWithinTheStream) {
  const std::string ok(
      "\x80\x02X\x03\x00\x00\x00"
      "abc.",
      11);
  EXPECT_EQ(pickle_problem(ok), "");
  const std::string lying(
      "\x80\x02X\xff\xff\xff\x7f"
      "abc.",
      11);
  EXPECT_NE(pickle_problem(lying).find("declares 2147483647 bytes, 4 are left"), std::string::npos);
  // Found by fuzz_weights: LONG_BINPUT 934951346 made the unpickler reserve 30 GB.
  const std::string memo(
      "\x80\x02N"
      "r\xb2\x39\xba\x37"
      ".",
      9);
  EXPECT_NE(pickle_problem(memo).find("stores memo entry 934951346 in a pickle of 9 bytes"),
            std::string::npos);
  const std::string small_memo(
      "\x80\x02N"
      "r\x00\x00\x00\x00"
      ".",
      9);
  EXPECT_EQ(pickle_problem(small_memo), "");
  const std::string no_stop = "\x80\x02N";
  EXPECT_NE(pickle_problem(no_stop).find("no STOP"), std::string::npos);
  const std::string unknown = "\x80\x02\xff.";
  EXPECT_NE(pickle_problem(unknown).find("not a pickle opcode"), std::string::npos);
}

TEST(PickleBounds, EveryOpcodeMustFindTheStackItemsItConsumes) {
  // fuzz_weights found REDUCE on a one-item stack: LibTorch's unpickler swapped the item with
  // the memory before the stack (a bad free). Every opcode is checked the same way.
  EXPECT_NE(
      pickle_problem(std::string("\x80\x02NN\x87R.", 7)).find("needs 3 stack items, there are 2"),
      std::string::npos);
  EXPECT_NE(pickle_problem(std::string("\x80\x02NR.", 5)).find("opcode 0x52 at byte 3"),
            std::string::npos);
  EXPECT_EQ(pickle_problem(std::string("\x80\x02NN\x86.", 6)), "");
  // DICT and SETITEMS read keys and values in pairs; an odd count read one past the stack.
  EXPECT_NE(pickle_problem(std::string("\x80\x02(NNNd.", 8)).find("odd number"), std::string::npos);
  EXPECT_EQ(pickle_problem(std::string("\x80\x02(NNd.", 7)), "");
  EXPECT_NE(pickle_problem(std::string("\x80\x02(Nu.", 6)).find("stale"), std::string::npos);
  EXPECT_EQ(pickle_problem(std::string("\x80\x02}(NNu.", 8)), "");
  // A MARK must exist and must not lie above the stack it closes.
  EXPECT_NE(pickle_problem(std::string("\x80\x02Nt.", 5)).find("no MARK"), std::string::npos);
  EXPECT_NE(pickle_problem(std::string("\x80\x02N(0t.", 7)).find("stale"), std::string::npos);
  EXPECT_NE(pickle_problem(std::string("\x80\x02.", 3)).find("empty stack"), std::string::npos);
}

TEST(WeightsFile, TheFuzzersOversizedStringIsRefusedBeforeLibTorchReadsIt) {
  const std::string path = fuzz_seed("oom_pickle_length");
  const std::string message = error_of(path);
  EXPECT_NE(message.find("data.pkl: opcode 0x58"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(WeightsFile, TheFuzzersHugeMemoIndexIsRefusedBeforeLibTorchReadsIt) {
  const std::string path = fuzz_seed("oom_pickle_memo_index");
  const std::string message = error_of(path);
  EXPECT_NE(message.find("data.pkl: opcode 0x72"), std::string::npos) << message;
  EXPECT_NE(message.find("stores memo entry"), std::string::npos) << message;
}

TEST(WeightsFile, ATensorReachingPastItsRecordIsRefused) {
  // Found by fuzz_weights: the tensor's shape claimed more bytes than its record held, and the
  // first read of it crashed (SEGV).
  const std::string path = fuzz_seed("crash_tensor_past_storage");
  const std::string message = error_of(path);
  EXPECT_NE(message.find("reaches past its stored bytes"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(WeightsFile, TheFuzzersReduceOnAShortStackIsRefusedBeforeLibTorchReadsIt) {
  // Found by fuzz_weights (AddressSanitizer: a bad free inside LibTorch's unpickler).
  const std::string path = fuzz_seed("crash_reduce_on_short_stack");
  const std::string message = error_of(path);
  EXPECT_NE(message.find("data.pkl: opcode 0x52 at byte 276: it needs 2 stack items, there are 1"),
            std::string::npos)
      << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(WeightsFile, WrittenWeightsReadBackAndGarbageIsRefused) {
  torch::manual_seed(3);
  torch::nn::Linear linear(4, 3);
  const std::string path = ::testing::TempDir() + "/atento_weights_" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary) << serialize_weights(*linear);
  const NamedTensors stored = read_weights(path);
  ASSERT_EQ(stored.size(), 2u);
  EXPECT_TRUE(torch::equal(stored.at("weight"), linear->weight));
  std::string bytes = read_file(path);
  std::ofstream(path, std::ios::binary) << bytes.substr(0, bytes.size() / 2);
  EXPECT_NE(error_of(path).find("is not a weights file"), std::string::npos) << error_of(path);
  std::remove(path.c_str());
}

TEST(WeightsFile, ARecordDeclaringMoreBytesThanTheFileIsRefusedBeforeLibTorchReadsIt) {
  torch::nn::Linear linear(4, 3);
  const std::string path = ::testing::TempDir() + "/atento_zip_" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary) << serialize_weights(*linear);
  EXPECT_EQ(zip_bounds_problem(path), "");
  std::string bytes = read_file(path);
  // The first central directory entry: sizes at bytes 20 (stored) and 24 (uncompressed).
  const size_t entry = bytes.find(std::string("PK\x01\x02", 4));
  ASSERT_NE(entry, std::string::npos);
  for (size_t field : {entry + 20, entry + 24}) bytes.replace(field, 4, "\xff\xff\xff\x7f", 4);
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes;
  const std::string message = error_of(path);
  EXPECT_NE(message.find("declares 2147483647 bytes"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
  std::ofstream(path, std::ios::binary | std::ios::trunc) << bytes.substr(0, 10);
  EXPECT_EQ(zip_bounds_problem(path), "too short for a zip archive");
  std::remove(path.c_str());
}

/// A linear layer with an optimizer that has taken `steps` steps.
template <class Optimizer, class Options>
struct Trained {
  torch::nn::Linear linear{4, 3};
  Optimizer optimizer;
  explicit Trained(Options options, int steps) : optimizer(linear->parameters(), options) {
    for (int i = 0; i < steps; ++i) step();
  }
  void step() {
    optimizer.zero_grad();
    linear->forward(torch::ones({2, 4})).pow(2).sum().backward();
    optimizer.step();
  }
};

std::string optimizer_error(torch::optim::Optimizer& optimizer, const std::string& path) {
  try {
    load_optimizer(optimizer, path);
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(OptimizerFile, RestoredStateContinuesExactly) {
  using Adam = Trained<torch::optim::Adam, torch::optim::AdamOptions>;
  torch::manual_seed(5);
  Adam a(torch::optim::AdamOptions(0.01).amsgrad(true), 3);
  torch::manual_seed(5);
  Adam b(torch::optim::AdamOptions(0.01).amsgrad(true), 0);
  const std::string path = ::testing::TempDir() + "/atento_optimizer_" + std::to_string(getpid());
  std::ofstream(path, std::ios::binary) << serialize_optimizer(a.optimizer);
  {
    torch::NoGradGuard no_grad;
    b.linear->weight.copy_(a.linear->weight);
    b.linear->bias.copy_(a.linear->bias);
  }
  load_optimizer(b.optimizer, path);
  a.step();
  b.step();
  EXPECT_TRUE(torch::equal(a.linear->weight, b.linear->weight));
  using Rms = Trained<torch::optim::RMSprop, torch::optim::RMSpropOptions>;
  Rms rms(torch::optim::RMSpropOptions(0.01), 1);
  EXPECT_NE(optimizer_error(rms.optimizer, path).find("holds no rmsprop state"), std::string::npos);
  std::remove(path.c_str());
}

TEST(OptimizerFile, ACorruptedTorchScriptArchiveIsRefusedNotRun) {
  // Both were read by LibTorch's TorchScript importer before; the second crashed it (found by
  // tests/fuzz/fuzz_weights). Neither is a state file now: each is an error naming the file.
  torch::optim::SGD sgd({torch::zeros({1})}, torch::optim::SGDOptions(0.1));
  EXPECT_THROW(load_optimizer(sgd, "x"), std::invalid_argument);
  Trained<torch::optim::Adam, torch::optim::AdamOptions> adam(torch::optim::AdamOptions(0.01), 1);
  for (const char* name : {"old_torchscript_optimizer", "crash_torchscript_optimizer"}) {
    const std::string path = fuzz_seed(name);
    const std::string message = optimizer_error(adam.optimizer, path);
    EXPECT_NE(message.find("cannot load optimizer state '" + path + "'"), std::string::npos)
        << message;
  }
}

}  // namespace
}  // namespace atento::model
