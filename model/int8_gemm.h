#pragma once
// Atento's own int8 matrix product, used by int8_linear() instead of oneDNN's on x86 CPUs.
// oneDNN's dynamic quantized linear (LibTorch 1.13) builds a kernel for every row count it meets
// (about 6 ms each) and pays a fixed cost of 0.03–0.05 ms a call, which at the few rows of a
// decoding step is more than the product; this one has no per-shape set-up, quantises each row
// in one pass and applies the scales and the bias as it stores the result.
// Arithmetic: weights symmetric per output channel (w ≈ s_v · W, W in [-127, 127]); each input
// row symmetric with its own scale (x ≈ t_n · X, t_n = max|x_n| / 127, X in [-127, 127]); the
// int32 sum Σ X·W is exact; the output is t_n · s_v · Σ X·W + b_v. A row's result depends on
// that row alone, never on the rows beside it or on the number of threads.
// Two instruction sets, the same packed weights and the same integer sums, so the same result:
// - AVX512-VNNI: vpdpbusd, 64 products of unsigned by signed bytes summed into 16 int32 lanes
//   per instruction; X is stored as X + 128 in an unsigned byte, and each sum starts from
//   −128 · Σ_k W[v,k] so that it ends as Σ X·W;
// - AVX2 (x86-64 CPUs since 2013–2015): vpmaddubsw then vpmaddwd, 32 products into 8 lanes.
//   vpmaddubsw saturates its 16-bit pair sums, so it multiplies |X| (≤ 127) by W carrying X's
//   sign (vpsignb): a pair is then at most 2 · 127 · 127 = 32,258, never saturated.
// Shape legend: N rows, D input width, V output width.

#include <torch/types.h>

#include <cstdint>

namespace atento::model {

/// The instruction sets of the kernel.
enum class Int8Isa { kAvx512Vnni, kAvx2 };

/// True when this CPU runs the kernel in `isa`: AVX512F, AVX512BW and AVX512-VNNI; AVX2 and FMA.
bool int8_isa_supported(Int8Isa isa);

/// A weight [V,D] quantised per output channel and laid out for packed_int8_linear(): blocks of
/// 16 output channels × 4 input positions, 64 bytes each (D padded to a multiple of 4 and V to a
/// multiple of 16 with zeros).
struct PackedInt8Weight {
  int64_t in = 0, out = 0;  ///< D, V
  torch::Tensor packed;     ///< int8 [V/16 · D/4 · 64], padded
  torch::Tensor offset;     ///< int32 [V padded]: −128 · Σ_k W[v,k] (the VNNI kernel's start)
  torch::Tensor scale;      ///< fp32 [V padded]: s_v = max|w_v| / 127
};

/// Quantises and lays out `weight` (fp32, CPU, [V,D]). Needs no particular CPU.
PackedInt8Weight pack_int8_weight(const torch::Tensor& weight);

/// x [N,D] (fp32, contiguous) · weightᵀ + bias [V] (fp32, may be undefined) → [N,V] fp32, each
/// row of x quantised with its own scale, in `isa` (which needs int8_isa_supported(isa)). Both
/// instruction sets give the same result.
torch::Tensor packed_int8_linear(const torch::Tensor& x, const PackedInt8Weight& weight,
                                 const torch::Tensor& bias, Int8Isa isa);

}  // namespace atento::model
