#pragma once
// Mixed precision in one place: an RAII guard that runs the forward passes inside its scope
// under LibTorch's autocast (matmuls and linear layers in bfloat16; the output layer's
// log-softmax and the loss stay in fp32, see model/output_layer.cpp). Backward runs outside it,
// as PyTorch recommends. `auto` picks bf16 only where it pays: on a CPU with native bfloat16
// dot products (AVX512-BF16, which AMX CPUs have too) oneDNN's bf16 matmuls are 2–4× faster
// than fp32 ones at these sizes and base.json trains 1.7× faster; on other CPUs bf16 is
// emulated, and on GPUs the small models measured slower in bf16.

#include <torch/types.h>

#include "app/common/config.h"

namespace atento {

/// True when this CPU has native bfloat16 dot products (AVX512-BF16).
bool cpu_has_native_bf16();

/// `precision` with auto resolved for `device`: bf16 on a CPU with native bfloat16, else fp32.
Precision resolve_precision(Precision precision, const torch::Device& device);

/// "fp32" or "bf16", for messages.
const char* precision_name(Precision resolved);

/// Enables bf16 autocast for `device`'s type while alive (fp32, or auto resolving to fp32: does
/// nothing); restores the previous autocast state and clears autocast's cache of cast weights
/// on exit.
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
