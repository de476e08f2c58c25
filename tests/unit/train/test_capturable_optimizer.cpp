// The optimiser step with its learning rate and step count on the device against LibTorch's
// own Adam, AdamW and RMSprop: the same weights and state after steps with a changing learning
// rate, from a fresh state and from one LibTorch's optimiser left, with every parameter decayed
// and with the vectors spared.

#include <gtest/gtest.h>
#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>
#include <torch/torch.h>

#include <memory>
#include <string>
#include <vector>

#include "app/train/capturable_optimizer.h"
#include "app/train/optimizer.h"
#include "model/optimizer_state.h"

namespace atento {
namespace {

std::vector<torch::Tensor> make_parameters() {
  torch::manual_seed(17);
  return {torch::randn({6, 4}).requires_grad_(), torch::randn({4}).requires_grad_()};
}

std::vector<torch::Tensor> clones(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> out;
  for (const auto& p : params) out.push_back(p.detach().clone().requires_grad_());
  return out;
}

void set_gradients(std::vector<torch::Tensor>& params, int64_t step) {
  torch::manual_seed(100 + step);
  for (auto& p : params) p.mutable_grad() = torch::randn(p.sizes());
}

void expect_close(const std::vector<torch::Tensor>& a, const std::vector<torch::Tensor>& b,
                  const std::string& what) {
  for (size_t i = 0; i < a.size(); ++i) {
    EXPECT_TRUE(torch::allclose(a[i], b[i], 1e-5, 1e-6))
        << what << ", parameter " << i << ": largest difference "
        << (a[i] - b[i]).abs().max().item<double>();
  }
}

TrainOptions options(OptimizerKind kind, double weight_decay, bool decay_vectors = true) {
  TrainOptions t;
  t.decay_vectors = decay_vectors;
  t.optimizer = kind;
  t.lr = 1e-2;
  t.beta1 = 0.9;
  t.beta2 = 0.98;
  t.rho = 0.9;
  t.eps = 1e-9;
  t.weight_decay = weight_decay;
  return t;
}

int64_t step_of(OptimizerKind kind, torch::optim::OptimizerParamState& state) {
  if (kind == OptimizerKind::kRmsprop) {
    return static_cast<torch::optim::RMSpropParamState&>(state).step();
  }
  if (kind == OptimizerKind::kAdamW)
    return static_cast<torch::optim::AdamWParamState&>(state).step();
  return static_cast<torch::optim::AdamParamState&>(state).step();
}

// `head_start` steps of LibTorch's optimiser on both copies first (a resumed run's state).
void check(OptimizerKind kind, double weight_decay, int head_start, bool decay_vectors = true) {
  const auto t = options(kind, weight_decay, decay_vectors);
  auto theirs = make_parameters();
  auto ours = clones(theirs);
  auto their_optimizer = make_optimizer(t, theirs);
  auto our_optimizer = make_optimizer(t, ours);
  for (int step = 0; step < head_start; ++step) {
    set_gradients(theirs, step);
    set_gradients(ours, step);
    their_optimizer->step();
    our_optimizer->step();
  }
  CapturableOptimizerStep capturable(*our_optimizer, t, torch::kCPU);
  for (int step = head_start; step < head_start + 6; ++step) {
    const double lr = 1e-2 / (1 + step);  // a schedule
    set_gradients(theirs, step);
    set_gradients(ours, step);
    set_learning_rate(*their_optimizer, lr);
    their_optimizer->step();
    capturable.set_learning_rate(lr);
    capturable.queue_step();
    capturable.count_step();
    expect_close(ours, theirs, "step " + std::to_string(step));
  }
  for (size_t i = 0; i < ours.size(); ++i) {
    auto* mine = model::find_optimizer_state(*our_optimizer, ours[i]);
    auto* reference = model::find_optimizer_state(*their_optimizer, theirs[i]);
    ASSERT_NE(mine, nullptr);
    ASSERT_NE(reference, nullptr);
    EXPECT_EQ(step_of(kind, *mine), step_of(kind, *reference));
    EXPECT_EQ(step_of(kind, *mine), head_start + 6);
  }
}

TEST(CapturableOptimizerStep, AdamMatchesLibTorch) {
  check(OptimizerKind::kAdam, 0.0, 0);
  check(OptimizerKind::kAdam, 0.01, 0);
}

TEST(CapturableOptimizerStep, AdamWMatchesLibTorch) { check(OptimizerKind::kAdamW, 0.05, 0); }

TEST(CapturableOptimizerStep, RmspropMatchesLibTorch) {
  check(OptimizerKind::kRmsprop, 0.0, 0);
  check(OptimizerKind::kRmsprop, 0.01, 0);
}

// The [4] parameter in a group of its own without decay (train.decay_vectors false).
TEST(CapturableOptimizerStep, SparesTheVectorsAsLibTorchDoes) {
  check(OptimizerKind::kAdam, 0.01, 0, false);
  check(OptimizerKind::kAdamW, 0.05, 0, false);
  check(OptimizerKind::kRmsprop, 0.01, 0, false);
  check(OptimizerKind::kAdamW, 0.05, 2, false);
}

TEST(CapturableOptimizerStep, ContinuesFromTheStateLibTorchLeft) {
  check(OptimizerKind::kAdam, 0.0, 3);
  check(OptimizerKind::kAdamW, 0.05, 2);
  check(OptimizerKind::kRmsprop, 0.0, 2);
}

TEST(CapturableOptimizerStep, RefusesAParameterWithoutGradient) {
  const auto t = options(OptimizerKind::kAdam, 0.0);
  auto params = make_parameters();
  auto optimizer = make_optimizer(t, params);
  CapturableOptimizerStep capturable(*optimizer, t, torch::kCPU);
  EXPECT_THROW(capturable.queue_step(), c10::Error);
}

}  // namespace
}  // namespace atento
