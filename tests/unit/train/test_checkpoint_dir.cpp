// The checkpoint directory: write → latest → load restores weights, optimiser state, average
// and TrainState; a new checkpoint rotates the previous one away; the `latest` pointer is
// checked before anything is read through it.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <filesystem>
#include <fstream>

#include "app/train/checkpoint_dir.h"
#include "tests/unit/test_app_pointer_error.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

namespace fs = std::filesystem;
using checkpoint_test::pointer_error;
using data::test_util::TempDir;

/// A tiny model with an Adam optimiser that has taken `steps` steps (so it has moments).
struct Tiny {
  torch::nn::Linear model{nullptr};
  std::unique_ptr<torch::optim::Adam> optimizer;

  explicit Tiny(uint64_t seed, int steps = 0) {
    torch::manual_seed(seed);
    model = torch::nn::Linear(4, 3);
    optimizer =
        std::make_unique<torch::optim::Adam>(model->parameters(), torch::optim::AdamOptions(0.01));
    for (int i = 0; i < steps; ++i) step();
  }
  void step() {
    optimizer->zero_grad();
    model->forward(torch::ones({2, 4})).pow(2).sum().backward();
    optimizer->step();
  }
};

TrainState state_at(int64_t step) {
  TrainState s;
  s.step = step;
  s.epoch = 2;
  s.batch_in_epoch = 5;
  s.best_value = 0.25;
  s.best_step = step - 1;
  s.last_eval_step = step;
  return s;
}

void expect_equal_weights(const torch::nn::Module& a, const torch::nn::Module& b) {
  auto pa = a.named_parameters(), pb = b.named_parameters();
  ASSERT_EQ(pa.size(), pb.size());
  for (const auto& item : pa) EXPECT_TRUE(torch::equal(item.value(), pb[item.key()])) << item.key();
}

std::string read(const std::string& path) {
  std::ifstream in(path);
  return std::string(std::istreambuf_iterator<char>(in), {});
}

TEST(CheckpointDir, NoPointerMeansNoCheckpoint) {
  TempDir dir;
  Tiny tiny(1);
  EXPECT_FALSE(latest_checkpoint(dir.str()));
  EXPECT_FALSE(load_latest_checkpoint(dir.str(), *tiny.model, *tiny.optimizer, nullptr));
}

TEST(CheckpointDir, WriteThenLoadRestoresWeightsOptimiserAndState) {
  TempDir dir;
  Tiny saved(1, 3);
  write_checkpoint(dir.str(), state_at(3), *saved.model, *saved.optimizer, nullptr);
  // The on-disk layout existing model directories have.
  EXPECT_EQ(read(dir.file("checkpoints/latest")), "step-3\n");
  for (const char* f : {"model.pt", "optimizer.pt", "state.json"}) {
    EXPECT_TRUE(fs::exists(dir.file("checkpoints/step-3/") + f)) << f;
  }
  EXPECT_FALSE(fs::exists(dir.file("checkpoints/step-3/average.pt")));
  EXPECT_EQ(*latest_checkpoint(dir.str()), dir.file("checkpoints/step-3"));

  Tiny restored(2);  // other initial weights, fresh optimiser
  auto loaded = load_latest_checkpoint(dir.str(), *restored.model, *restored.optimizer, nullptr);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->dir, dir.file("checkpoints/step-3"));
  EXPECT_EQ(loaded->state.step, 3);
  EXPECT_EQ(loaded->state.batch_in_epoch, 5);
  EXPECT_EQ(loaded->state.best_value, 0.25);
  EXPECT_FALSE(loaded->average_missing);
  expect_equal_weights(*saved.model, *restored.model);
  // Same Adam moments: one more step keeps the two identical.
  saved.step();
  restored.step();
  expect_equal_weights(*saved.model, *restored.model);
}

TEST(CheckpointDir, TheAverageTravelsWhenThereIsOne) {
  TempDir dir;
  Tiny saved(1, 2);
  Tiny average(3);
  write_checkpoint(dir.str(), state_at(2), *saved.model, *saved.optimizer, average.model.get());
  EXPECT_TRUE(fs::exists(dir.file("checkpoints/step-2/average.pt")));
  Tiny restored(4), restored_average(5);
  auto loaded = load_latest_checkpoint(dir.str(), *restored.model, *restored.optimizer,
                                       restored_average.model.get());
  ASSERT_TRUE(loaded);
  EXPECT_FALSE(loaded->average_missing);
  expect_equal_weights(*average.model, *restored_average.model);
}

TEST(CheckpointDir, AnAverageAskedForButNeverWrittenIsReported) {
  TempDir dir;
  Tiny saved(1, 1);
  write_checkpoint(dir.str(), state_at(1), *saved.model, *saved.optimizer, nullptr);
  Tiny restored(2), untouched(3), reference(3);
  auto loaded = load_latest_checkpoint(dir.str(), *restored.model, *restored.optimizer,
                                       untouched.model.get());
  ASSERT_TRUE(loaded);
  EXPECT_TRUE(loaded->average_missing);
  expect_equal_weights(*reference.model, *untouched.model);
}

TEST(CheckpointDir, ANewCheckpointRotatesThePreviousOneAway) {
  TempDir dir;
  Tiny tiny(1, 1);
  write_checkpoint(dir.str(), state_at(10), *tiny.model, *tiny.optimizer, nullptr);
  tiny.step();
  write_checkpoint(dir.str(), state_at(20), *tiny.model, *tiny.optimizer, nullptr);
  EXPECT_EQ(read(dir.file("checkpoints/latest")), "step-20\n");
  EXPECT_FALSE(fs::exists(dir.file("checkpoints/step-10")));
  EXPECT_TRUE(fs::exists(dir.file("checkpoints/step-20/model.pt")));
  // Rewriting the same step (a validation right before SIGINT) keeps it.
  write_checkpoint(dir.str(), state_at(20), *tiny.model, *tiny.optimizer, nullptr);
  EXPECT_TRUE(fs::exists(dir.file("checkpoints/step-20/model.pt")));
  Tiny restored(2);
  auto loaded = load_latest_checkpoint(dir.str(), *restored.model, *restored.optimizer, nullptr);
  ASSERT_TRUE(loaded);
  EXPECT_EQ(loaded->state.step, 20);
  expect_equal_weights(*tiny.model, *restored.model);
}

TEST(CheckpointDir, KeepsTheNewestCompleteCheckpointsItIsAskedFor) {
  TempDir dir;
  Tiny tiny(1, 1);
  for (int64_t step : {500, 900, 1000, 1500}) {
    write_checkpoint(dir.str(), state_at(step), *tiny.model, *tiny.optimizer, nullptr, 3);
  }
  // Numeric order, not the names' (step-900 sorts after step-1500 as text).
  EXPECT_EQ(
      complete_checkpoints(dir.str()),
      (std::vector<std::string>{dir.file("checkpoints/step-900"), dir.file("checkpoints/step-1000"),
                                dir.file("checkpoints/step-1500")}));
  // A half-written older checkpoint (no state.json) and one beyond the new step (a crash, then
  // a resume from an earlier one) are neither counted nor kept.
  fs::create_directories(dir.file("checkpoints/step-1700"));
  fs::remove(dir.file("checkpoints/step-1000/state.json"));
  write_checkpoint(dir.str(), state_at(1600), *tiny.model, *tiny.optimizer, nullptr, 3);
  EXPECT_EQ(
      complete_checkpoints(dir.str()),
      (std::vector<std::string>{dir.file("checkpoints/step-900"), dir.file("checkpoints/step-1500"),
                                dir.file("checkpoints/step-1600")}));
  EXPECT_FALSE(fs::exists(dir.file("checkpoints/step-1000")));
  EXPECT_FALSE(fs::exists(dir.file("checkpoints/step-1700")));
  EXPECT_EQ(read(dir.file("checkpoints/latest")), "step-1600\n");
  // Asking for fewer later removes the surplus.
  write_checkpoint(dir.str(), state_at(1800), *tiny.model, *tiny.optimizer, nullptr);
  EXPECT_EQ(complete_checkpoints(dir.str()),
            (std::vector<std::string>{dir.file("checkpoints/step-1800")}));
  EXPECT_TRUE(complete_checkpoints(dir.file("nothing-here")).empty());
}

TEST(CheckpointDir, AHostileOrCorruptPointerIsAClearError) {
  TempDir dir;
  Tiny tiny(1);
  write_checkpoint(dir.str(), state_at(5), *tiny.model, *tiny.optimizer, nullptr);
  auto pointer = dir.file("checkpoints/latest");
  // "../step-5" would resolve to a real directory if followed: it must not be.
  fs::create_directories(dir.file("step-5"));
  for (std::string bad : {"../../etc\n", "", "\n", "garbage", "step-", "step-5/../../x", "step-x5",
                          "../step-5", "/etc", "step-5a", "step--5"}) {
    std::ofstream(pointer, std::ios::trunc) << bad;
    auto message = pointer_error(dir);
    EXPECT_NE(message.find(pointer), std::string::npos) << "'" << bad << "': " << message;
    EXPECT_NE(message.find("not a checkpoint"), std::string::npos)
        << "'" << bad << "': " << message;
    Tiny other(2);
    EXPECT_THROW(load_latest_checkpoint(dir.str(), *other.model, *other.optimizer, nullptr),
                 std::runtime_error)
        << bad;
  }
}

TEST(CheckpointDir, APointerToAMissingCheckpointIsAClearError) {
  TempDir dir;
  Tiny tiny(1);
  write_checkpoint(dir.str(), state_at(5), *tiny.model, *tiny.optimizer, nullptr);
  auto pointer = dir.file("checkpoints/latest");
  std::ofstream(pointer, std::ios::trunc) << "step-6\n";
  auto message = pointer_error(dir);
  EXPECT_NE(message.find(pointer + ": names a missing checkpoint 'step-6'"), std::string::npos)
      << message;
  // A plain file where the directory should be is no checkpoint either.
  std::ofstream(dir.file("checkpoints/step-6")) << "x";
  EXPECT_NE(pointer_error(dir).find("missing checkpoint"), std::string::npos);
}

TEST(CheckpointDir, ACorruptStateFileIsAnErrorNamingIt) {
  TempDir dir;
  Tiny tiny(1);
  write_checkpoint(dir.str(), state_at(5), *tiny.model, *tiny.optimizer, nullptr);
  auto state = dir.file("checkpoints/step-5/state.json");
  std::ofstream(state, std::ios::trunc) << "{\"step\": 5}";
  Tiny other(2);
  try {
    load_latest_checkpoint(dir.str(), *other.model, *other.optimizer, nullptr);
    FAIL() << "no error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(state + ": corrupt training state"), std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace atento
