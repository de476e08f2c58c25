#pragma once
// Atento's own int8 matrix product for CPUs with AVX512-VNNI (vpdpbusd: 64 products of unsigned
// by signed bytes summed into 16 int32 lanes per instruction), used by int8_linear() instead of
// oneDNN's where the CPU has it. oneDNN's dynamic quantized linear (LibTorch 1.13) builds a
// kernel for every row count it meets (about 6 ms each) and pays a fixed cost of 0.03–0.05 ms a
// call, which at the few rows of a decoding step is more than the product; this one has no
// per-shape set-up, quantises each row in one pass and applies the scales and the bias as it
// stores the result.
// Arithmetic: weights symmetric per output channel (w ≈ s_v · W, W in [-127, 127]); each input
// row symmetric with its own scale (x ≈ t_n · X, t_n = max|x_n| / 127), stored as X + 128 in an
// unsigned byte; the int32 sum Σ (X+128)·W is exact, and starts from −128 · Σ_k W[v,k] so that
// it ends as Σ X·W; the output is t_n · s_v · Σ X·W + b_v. A row's result depends on that row
// alone, never on the rows beside it or on the number of threads.
// Shape legend: N rows, D input width, V output width.

#include <torch/types.h>

#include <cstdint>

namespace atento::model {

/// True when this CPU runs the kernels below (AVX512F, AVX512BW and AVX512-VNNI).
bool vnni_gemm_supported();

/// A weight [V,D] quantised per output channel and laid out for vnni_linear(): blocks of 16
/// output channels × 4 input positions, 64 bytes each (D padded to a multiple of 4 and V to a
/// multiple of 16 with zeros).
struct VnniWeight {
  int64_t in = 0, out = 0;  ///< D, V
  torch::Tensor packed;     ///< int8 [V/16 · D/4 · 64], padded
  torch::Tensor offset;     ///< int32 [V padded]: −128 · Σ_k W[v,k]
  torch::Tensor scale;      ///< fp32 [V padded]: s_v = max|w_v| / 127
};

/// Quantises and lays out `weight` (fp32, CPU, [V,D]). Needs no particular CPU.
VnniWeight pack_vnni_weight(const torch::Tensor& weight);

/// x [N,D] (fp32, contiguous) · weightᵀ + bias [V] (fp32, may be undefined) → [N,V] fp32, each
/// row of x quantised with its own scale. Needs vnni_gemm_supported().
torch::Tensor vnni_linear(const torch::Tensor& x, const VnniWeight& weight,
                          const torch::Tensor& bias);

}  // namespace atento::model
