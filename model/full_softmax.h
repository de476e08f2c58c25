#pragma once
// The full softmax output layers: logits = hidden · Wᵀ + b over every target id, with W its own
// matrix (FullSoftmax) or the target embedding matrix (TiedSoftmax, Press & Wolf 2017).
// Shape legend: D d_model, V vocab.

#include <torch/nn/modules/embedding.h>
#include <torch/nn/pimpl.h>

#include <cstdint>

#include "model/output_layer.h"
#include "model/projection.h"

namespace atento::model {

/// Its own projection D → V, initialised like glorot_linear (Keras' Dense).
class FullSoftmaxImpl : public OutputLayerImpl {
 public:
  FullSoftmaxImpl(int64_t d_model, int64_t vocab);
  /// [..., D] → logits [..., V]
  torch::Tensor scores(const torch::Tensor& hidden) override;

  torch::Tensor weight;  ///< [V,D]
  torch::Tensor bias;    ///< [V]

 private:
  std::shared_ptr<WeightCache> cache_ = std::make_shared<WeightCache>();
};
TORCH_MODULE(FullSoftmax);

/// Logits through the target embedding matrix [V,D] plus a bias of its own (zeros at first).
/// The embedding is read, not registered: its owner (the decoder) holds the parameter.
class TiedSoftmaxImpl : public OutputLayerImpl {
 public:
  explicit TiedSoftmaxImpl(torch::nn::Embedding embedding);
  /// [..., D] → logits [..., V]
  torch::Tensor scores(const torch::Tensor& hidden) override;

  torch::nn::Embedding embedding;  ///< not registered here
  torch::Tensor bias;              ///< [V]

 private:
  std::shared_ptr<WeightCache> cache_ = std::make_shared<WeightCache>();
};
TORCH_MODULE(TiedSoftmax);

}  // namespace atento::model
