#pragma once
// The position-wise feed-forward sublayer of a Transformer block (Vaswani et al. 2017, §3.3).
// Shape legend: D d_model.

#include <torch/arg.h>
#include <torch/nn/module.h>
#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <memory>

#include "model/projection.h"

namespace atento::model {

struct FeedForwardOptions {
  FeedForwardOptions(int64_t d_model, int64_t d_ff) : d_model_(d_model), d_ff_(d_ff) {}
  /// Input and output width D.
  TORCH_ARG(int64_t, d_model);
  /// Inner width.
  TORCH_ARG(int64_t, d_ff);
};

/// Position-wise feed-forward: linear2(relu(linear1(x))).
class FeedForwardImpl : public torch::nn::Module {
 public:
  explicit FeedForwardImpl(const FeedForwardOptions& options);
  /// [..., D] → [..., D]
  torch::Tensor forward(const torch::Tensor& x);

  torch::nn::Linear linear1{nullptr}, linear2{nullptr};

 private:
  /// Decoding copies (transposed fp32, bf16) of the two weights (see dense()).
  std::shared_ptr<WeightCache> linear1_cache_ = std::make_shared<WeightCache>(),
                               linear2_cache_ = std::make_shared<WeightCache>();
};
TORCH_MODULE(FeedForward);

}  // namespace atento::model
