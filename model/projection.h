#pragma once
// hidden · Wᵀ + b, the product of every dense layer and of the full and tied softmax layers,
// with faster paths for decoding on a CPU. OpenBLAS repacks the [V,D] matrix on every call,
// which at the few rows of a decoding step costs as much as the product itself: one row is a
// matrix-vector product instead, and more rows go through a [D,V] copy, which packs about
// twice as fast (measured at V = 8,000, D = 256, one thread: 1 row 1.66 → 0.20 ms, 8 rows
// 1.78 → 0.97 ms, 64 rows 5.35 → 4.47 ms; at V = 256, one row 0.029 → 0.006 ms).
// Under bf16 autocast (decoding in bfloat16) the product multiplies by a bf16 copy of the
// weight kept across calls, where autocast would cast the weight anew in every one of its
// scopes (a scope per decoding step in atento-serve). Under int8 decoding (model/int8_linear.h)
// every product with a cache multiplies by its int8 copy of the weight, packed once.
// Shape legend: D input width, V output width.

#include <torch/nn/modules/linear.h>
#include <torch/types.h>

#include <cstdint>
#include <memory>
#include <mutex>

#include "model/int8_linear.h"

namespace atento::model {

/// Copies of one weight laid out for decoding, each rebuilt whenever the weight changes
/// (another tensor, or an in-place update: the version counter). Safe to share between threads.
class WeightCache {
 public:
  /// weight [V,D] → its transpose [D,V], contiguous, fp32.
  torch::Tensor transposed(const torch::Tensor& weight);
  /// weight [V,D] → the same in bfloat16, as autocast would cast it.
  torch::Tensor bf16(const torch::Tensor& weight);
  /// weight [V,D] → int8 per output channel, packed for the quantized engine (int8 decoding).
  std::shared_ptr<const Int8Weight> int8(const torch::Tensor& weight);

 private:
  template <typename T>
  struct Copy {
    T value;
    const void* data = nullptr;
    int64_t version = -1;  ///< -1: not built yet
  };
  template <typename T, typename Make>
  T refreshed(Copy<T>& copy, const torch::Tensor& weight, Make make);

  std::mutex mutex_;
  Copy<torch::Tensor> transposed_, bf16_;
  Copy<std::shared_ptr<const Int8Weight>> int8_;
};

/// True while decoding on a CPU in bfloat16: no gradients and CPU autocast on with dtype bf16.
bool bf16_decoding();

/// hidden [..., D] · weight [V,D]ᵀ + bias [V] → [..., V]. The fast paths, on a CPU without
/// gradients: a single row is an fp32 matrix-vector product (under bf16 decoding too: one row
/// is faster in fp32 than in oneDNN's bf16 GEMM); with a `cache`, several rows multiply by the
/// transposed fp32 weight, or under bf16_decoding() by the cached bf16 weight (the result
/// autocast's linear gives, in bf16). Under int8_decoding() with a `cache`, every product (one
/// row too, so that a row's result never depends on the batch) is int8_linear() with the
/// cached int8 weight. torch::linear everywhere else (training, GPUs).
torch::Tensor project(const torch::Tensor& hidden, const torch::Tensor& weight,
                      const torch::Tensor& bias, WeightCache* cache = nullptr);

/// x·Wᵀ + b with the parameters of `layer`: [..., in] → [..., out]. Goes through ATen's linear
/// (model/projection.h), which runs one fused addmm for contiguous [B,L,in] input;
/// torch::nn::Linear::forward in LibTorch 1.13 runs a matmul and then a separate pass adding the
/// bias. A single row without gradients on a CPU is a matrix-vector product; with `cache`,
/// products of up to kFewRows rows (decoding steps) multiply by its [in,out] copy of the weight,
/// which OpenBLAS packs faster than the weight itself, and under bf16 (int8) decoding every
/// product multiplies by its bf16 (int8) copy.
torch::Tensor dense(const torch::Tensor& x, const torch::nn::Linear& layer,
                    WeightCache* cache = nullptr);

/// Most rows for which dense() uses the transposed copy: measured on one thread at D = 256,
/// d_ff = 1,024, it is 1.3–1.5× faster up to 8 rows and 1.04–1.16× at 32, but from 64 rows on
/// it is sometimes slower (0.73–1.13×).
constexpr int64_t kFewRows = 48;

}  // namespace atento::model
