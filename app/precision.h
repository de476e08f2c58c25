#pragma once
// Mixed precision in one place: an RAII guard that runs the forward passes inside its scope
// under LibTorch's autocast (matmuls and linear layers in bfloat16; the output layer's
// log-softmax and the loss stay in fp32, see model/output_layer.cpp). Backward runs outside it,
// as PyTorch recommends.

#include <torch/types.h>

#include "app/config.h"

namespace atento {

/// Enables bf16 autocast for `device`'s type while alive (fp32: does nothing); restores the
/// previous autocast state and clears autocast's cache of cast weights on exit.
class AutocastGuard {
 public:
  AutocastGuard(Precision precision, const torch::Device& device);
  ~AutocastGuard();
  AutocastGuard(const AutocastGuard&) = delete;
  AutocastGuard& operator=(const AutocastGuard&) = delete;

 private:
  bool active_ = false;
  bool cuda_ = false;
  bool was_enabled_ = false;
  torch::ScalarType previous_dtype_ = torch::kFloat;
};

}  // namespace atento
