#pragma once
// Scoped evaluation: eval mode without gradients, the previous training flag restored on every
// exit (exceptions included), so a trainer that translates or scores a validation batch keeps
// training with dropout.

#include <torch/csrc/autograd/grad_mode.h>
#include <torch/nn/module.h>

namespace atento::model {

/// Sets `module` (and its children) to eval mode and disables gradients for its lifetime; the
/// destructor restores the module's previous training flag and the gradient mode.
class EvalModeGuard {
 public:
  // A module already in eval mode is only read, so that several threads may decode with one
  // model at once (atento-serve's workers).
  explicit EvalModeGuard(torch::nn::Module& module)
      : module_(module), was_training_(module.is_training()) {
    if (was_training_) module_.eval();
  }
  ~EvalModeGuard() {
    if (was_training_) module_.train(true);
  }
  EvalModeGuard(const EvalModeGuard&) = delete;
  EvalModeGuard& operator=(const EvalModeGuard&) = delete;

 private:
  torch::NoGradGuard no_grad_;
  torch::nn::Module& module_;
  bool was_training_;
};

}  // namespace atento::model
