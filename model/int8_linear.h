#pragma once
// int8 decoding on a CPU: dense layers whose weights are int8, one scale per output channel
// (symmetric: scale = max|w_v| / 127), prepacked once for LibTorch's quantized CPU kernels, and
// whose input rows are quantised at run time, one scale per row.
//
// The kernel is LibTorch's own dynamic quantized linear (quantized::linear_prepack, then the
// packed weight's apply_dynamic) on the oneDNN quantized engine: the Debian LibTorch 1.13 is
// built without fbgemm (its fbgemm_* operators only throw), and its QNNPACK engine, written for
// ARM, was 3-6x slower than fp32 on x86 at 16 rows and more (docs/results.md). apply_dynamic
// quantises its whole input with one scale, the tensor's range, so that one row's result would
// depend on the rows beside it; int8_linear() divides each row by its largest magnitude and
// appends a row holding +1 and -1, so that the tensor's range is always [-1, 1] and every row
// gets its own scale (max|x_n| / 127.5): each row's product is then the same alone or in any
// batch (the int32 accumulation is exact), and a row of small values keeps its precision beside
// large ones.
// On x86 CPUs with AVX512-VNNI or AVX2 the product is Atento's own kernel instead
// (model/int8_gemm.h: the same arithmetic, one scale per output channel and one per row, without
// oneDNN's per-shape kernel builds and per-call fixed cost, which made int8 decoding slower than
// fp32).
// Shape legend: N rows, D input width, V output width.

#include <c10/util/intrusive_ptr.h>
#include <torch/types.h>

#include "model/int8_gemm.h"

struct LinearPackedParamsBase;  // ATen/native/quantized/PackedParams.h

namespace atento::model {

/// True when int8_linear() can run here: the CPU runs Atento's kernel (AVX512-VNNI or AVX2), or
/// this LibTorch has a quantized CPU engine with int8 matrix products (oneDNN, else fbgemm;
/// QNNPACK alone does not count).
bool int8_supported();

/// Which kernel an Int8Weight multiplies with: kAuto is the first of Atento's kernel in
/// AVX512-VNNI (kVnni), in AVX2 (kAvx2), and LibTorch's quantized engine (kQuantizedEngine) that
/// runs here.
enum class Int8Kernel { kAuto, kVnni, kAvx2, kQuantizedEngine };

/// The kernel kAuto resolves to on this CPU.
Int8Kernel auto_int8_kernel();

/// The kernel's name: "vnni", "avx2", "quantized engine" (or "auto").
const char* int8_kernel_name(Int8Kernel kernel);

/// A weight [V,D] quantised to int8 per output channel and prepacked for the quantized engine.
/// Immutable once built: several threads may multiply by it at once.
class Int8Weight {
 public:
  /// Quantises and packs `weight` (fp32, CPU, [V,D]) for `kernel`; throws where that kernel
  /// cannot run here.
  explicit Int8Weight(const torch::Tensor& weight, Int8Kernel kernel = Int8Kernel::kAuto);
  ~Int8Weight();
  Int8Weight(const Int8Weight&) = delete;
  Int8Weight& operator=(const Int8Weight&) = delete;

  int64_t in_features() const { return in_; }
  int64_t out_features() const { return out_; }
  /// kVnni, kAvx2 or kQuantizedEngine: the kernel int8_linear() multiplies with.
  Int8Kernel kernel() const { return kernel_; }
  /// The weight packed for the quantized engine (kernel() == kQuantizedEngine).
  LinearPackedParamsBase& packed() const { return *packed_; }
  /// The weight laid out for Atento's kernel (kVnni, kAvx2).
  const PackedInt8Weight& own() const { return own_; }

 private:
  c10::intrusive_ptr<LinearPackedParamsBase> packed_;
  PackedInt8Weight own_;
  Int8Kernel kernel_ = Int8Kernel::kQuantizedEngine;
  int64_t in_ = 0, out_ = 0;
};

/// x [..., D] (fp32) · weightᵀ + bias [V] → [..., V] fp32, each row of x quantised to 8 bits
/// with its own scale (see the top of this file). `bias` may be undefined.
torch::Tensor int8_linear(const torch::Tensor& x, const Int8Weight& weight,
                          const torch::Tensor& bias);

/// The rows int8_linear() hands the quantized engine for `rows` rows: at least 8, rounded up to 8
/// steps per power of two (at most 12.5% more), so that few row counts (each a kernel oneDNN builds
/// on first use) occur.
int64_t padded_rows(int64_t rows);

/// True while this thread decodes in int8: inside an Int8DecodingScope, without gradients.
bool int8_decoding();

/// Turns int8 decoding on for this thread while alive (when `enabled`), restoring the previous
/// state on exit. Dense layers with a WeightCache then multiply by its int8 copy
/// (model/projection.h); training (gradients on) never does.
class Int8DecodingScope {
 public:
  explicit Int8DecodingScope(bool enabled);
  ~Int8DecodingScope();
  Int8DecodingScope(const Int8DecodingScope&) = delete;
  Int8DecodingScope& operator=(const Int8DecodingScope&) = delete;

 private:
  bool previous_;
};

}  // namespace atento::model
