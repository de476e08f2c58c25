#pragma once
// Mixed precision in one place: an RAII guard that runs the forward passes inside its scope
// under LibTorch's autocast (matmuls and linear layers in bfloat16; the output layer's
// log-softmax and the loss stay in fp32, see model/output_layer.cpp). Backward runs outside it,
// as PyTorch recommends. `auto` picks bf16 only where it pays: on a CPU with native bfloat16
// dot products (AVX512-BF16, which AMX CPUs have too) oneDNN's bf16 matmuls are 2–4× faster
// than fp32 ones at these sizes and base.json trains 1.7× faster; on other CPUs bf16 is
// emulated, and on GPUs the small models measured slower in bf16.
// Decoding has a third choice, int8 (model/int8_linear.h: int8 weights per output channel,
// input rows quantised at run time), which training refuses. The decoding rule for `auto`
// (auto_decoding_precision): bf16 where the CPU has native bfloat16, else int8 where Atento's
// int8 kernel runs (model/int8_gemm.h), else fp32. Measured speeds of each precision, by CPU and
// model: docs/results.md#int8-decoding.

#include <torch/types.h>

#include "app/common/config.h"
#include "model/int8_linear.h"

namespace atento {

/// True when this CPU has native bfloat16 dot products (AVX512-BF16).
bool cpu_has_native_bf16();

/// True when this CPU runs Atento's int8 kernel (AVX512-VNNI or AVX2); elsewhere int8 falls
/// back to oneDNN, slower than fp32.
bool cpu_has_int8_dot();

/// `precision` with auto resolved for training on `device`: bf16 on a CPU with native
/// bfloat16, else fp32.
Precision resolve_precision(Precision precision, const torch::Device& device);

/// The decoding rule for auto, given what the CPU has: bf16 with native bfloat16, else int8
/// with int8 dot products (and a quantized engine: `int8_engine`), else fp32.
Precision auto_decoding_precision(bool native_bf16, bool int8_dot, bool int8_engine);

/// `precision` with auto resolved for decoding on `device`: auto_decoding_precision() on a
/// CPU, fp32 on a GPU.
Precision resolve_decoding_precision(Precision precision, const torch::Device& device);

/// "fp32", "bf16" or "int8", for messages.
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

/// The arithmetic of decoding while alive: translate.precision resolved for decoding
/// (resolve_decoding_precision), bf16 through an AutocastGuard, int8 through a
/// model::Int8DecodingScope; fp32 does nothing.
class DecodingPrecisionGuard {
 public:
  DecodingPrecisionGuard(Precision precision, const torch::Device& device);

 private:
  Precision resolved_;
  AutocastGuard autocast_;
  model::Int8DecodingScope int8_;
};

}  // namespace atento
