#include "app/train/capturable_optimizer.h"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>
#include <torch/torch.h>

#include <algorithm>
#include <memory>
#include <stdexcept>
#include <utility>

#include "app/train/optimizer.h"
#include "model/optimizer_state.h"

namespace atento {
namespace {

using torch::optim::OptimizerParamState;

/// A first step's state for `parameter`: zero moments, as LibTorch's optimisers create it.
std::unique_ptr<OptimizerParamState> zero_state(OptimizerKind kind, const torch::Tensor& p) {
  auto zeros = [&] { return torch::zeros_like(p, torch::MemoryFormat::Preserve); };
  switch (kind) {
    case OptimizerKind::kAdam: {
      auto state = std::make_unique<torch::optim::AdamParamState>();
      state->exp_avg(zeros());
      state->exp_avg_sq(zeros());
      return state;
    }
    case OptimizerKind::kAdamW: {
      auto state = std::make_unique<torch::optim::AdamWParamState>();
      state->exp_avg(zeros());
      state->exp_avg_sq(zeros());
      return state;
    }
    case OptimizerKind::kRmsprop: {
      auto state = std::make_unique<torch::optim::RMSpropParamState>();
      state->square_avg(zeros());
      return state;
    }
  }
  throw std::logic_error("unknown optimizer");
}

/// The step count a state keeps (checkpoints save it).
int64_t& step_count(OptimizerKind kind, OptimizerParamState& state) {
  switch (kind) {
    case OptimizerKind::kAdam:
      return static_cast<torch::optim::AdamParamState&>(state).step();
    case OptimizerKind::kAdamW:
      return static_cast<torch::optim::AdamWParamState&>(state).step();
    case OptimizerKind::kRmsprop:
      return static_cast<torch::optim::RMSpropParamState&>(state).step();
  }
  throw std::logic_error("unknown optimizer");
}

/// exp_avg and exp_avg_sq of an Adam or AdamW state.
template <class State>
std::pair<torch::Tensor, torch::Tensor> moments(OptimizerParamState& state) {
  auto& s = static_cast<State&>(state);
  return {s.exp_avg(), s.exp_avg_sq()};
}

}  // namespace

CapturableOptimizerStep::CapturableOptimizerStep(torch::optim::Optimizer& optimizer,
                                                 const TrainOptions& t, const torch::Device& device)
    : optimizer_(optimizer), options_(t) {
  int64_t steps = 0;
  for (const auto& group : optimizer.param_groups()) {
    for (const auto& p : group.params()) {
      auto* state = model::find_optimizer_state(optimizer, p);
      if (state == nullptr) {
        state = &model::put_optimizer_state(optimizer, p, zero_state(t.optimizer, p));
      }
      steps = std::max(steps, step_count(t.optimizer, *state));
      params_.push_back(p);
      states_.push_back(state);
      decays_.push_back(decay_of(t, p));
    }
  }
  const auto on_device = torch::TensorOptions(torch::kDouble).device(device);
  lr_ = torch::full({}, t.lr, on_device);
  step_ = torch::full({}, static_cast<double>(steps), on_device);
}

void CapturableOptimizerStep::set_learning_rate(double lr) { lr_.fill_(lr); }

void CapturableOptimizerStep::queue_step() {
  torch::NoGradGuard no_grad;
  for (const auto& p : params_) {
    TORCH_CHECK(p.grad().defined(), "capturable optimizer step: a parameter has no gradient");
  }
  step_.add_(1);
  if (options_.optimizer == OptimizerKind::kRmsprop) return queue_rmsprop();
  // Bias corrections 1 − βᵗ with t on the device: torch::optim::Adam computes them on the host.
  auto bias1 = 1 - torch::pow(options_.beta1, step_);                // []
  auto bias2_root = (1 - torch::pow(options_.beta2, step_)).sqrt();  // []
  queue_adam(lr_ / bias1, bias2_root);
}

void CapturableOptimizerStep::queue_adam(const torch::Tensor& step_size,
                                         const torch::Tensor& bias2_root) {
  const double beta1 = options_.beta1, beta2 = options_.beta2;
  const bool decoupled = options_.optimizer == OptimizerKind::kAdamW;
  for (size_t i = 0; i < params_.size(); ++i) {
    auto& p = params_[i];
    const double decay = decays_[i];
    auto grad = !decoupled && decay != 0 ? p.grad().add(p, decay) : p.grad();  // L2
    auto [exp_avg, exp_avg_sq] = decoupled ? moments<torch::optim::AdamWParamState>(*states_[i])
                                           : moments<torch::optim::AdamParamState>(*states_[i]);
    if (decoupled && decay != 0) p.mul_(1 - lr_ * decay);  // p ← p·(1 − lr·λ)
    exp_avg.mul_(beta1).add_(grad, 1 - beta1);
    exp_avg_sq.mul_(beta2).addcmul_(grad, grad, 1 - beta2);
    auto denom = (exp_avg_sq.sqrt() / bias2_root).add_(options_.eps);
    p.sub_(exp_avg.mul(step_size).div_(denom));  // p.addcdiv_(m, denom, −lr / (1 − β1ᵗ))
  }
}

void CapturableOptimizerStep::queue_rmsprop() {
  const double alpha = options_.rho;
  for (size_t i = 0; i < params_.size(); ++i) {
    auto& p = params_[i];
    auto grad = decays_[i] != 0 ? p.grad().add(p, decays_[i]) : p.grad();
    auto& square_avg = static_cast<torch::optim::RMSpropParamState&>(*states_[i]).square_avg();
    square_avg.mul_(alpha).addcmul_(grad, grad, 1 - alpha);
    auto avg = square_avg.sqrt().add_(options_.eps);
    p.sub_(grad.mul(lr_).div_(avg));  // p.addcdiv_(g, avg, −lr)
  }
}

void CapturableOptimizerStep::count_step() {
  for (auto* state : states_) ++step_count(options_.optimizer, *state);
}

}  // namespace atento
