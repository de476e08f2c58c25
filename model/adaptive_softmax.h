#pragma once
// The adaptive softmax output layer (Grave et al. 2017, "Efficient softmax approximation for
// GPUs"), which factorises the same exact distribution by word frequency. Ids must be ranked by
// frequency (the `words` vocabulary is). With cutoffs c₀ < c₁ < … < V the head scores the c₀ most
// frequent ids plus one entry per tail cluster; cluster i covers [cᵢ, cᵢ₊₁) and scores its
// words through a narrower projection D → D/divⁱ⁺¹ → |cluster|, so
//   log p(w) = log p_head(w)                                     for w < c₀
//   log p(w) = log p_head(cluster i) + log p_tail_i(w)           for w in cluster i.
// Training pays the head for every position and a tail only for positions whose target lies
// in it: with the book's 15,000-word vocabulary most of the output layer's cost disappears,
// while accuracy and decoding still see the whole normalised distribution.

#include <torch/nn/modules/linear.h>
#include <torch/nn/pimpl.h>

#include <cstdint>
#include <vector>

#include "model/output_layer.h"

namespace atento::model {

/// Adaptive softmax parameters: the head and one two-layer projection per tail cluster.
class AdaptiveSoftmaxImpl : public OutputLayerImpl {
 public:
  /// `cutoffs` strictly increasing, each in (0, vocab); `div` ≥ 1 shrinks each cluster's width.
  AdaptiveSoftmaxImpl(int64_t d_model, int64_t vocab, std::vector<int64_t> cutoffs, int64_t div);

  /// hidden [..., D] → log-probabilities [..., V] (adaptive_log_probs).
  torch::Tensor scores(const torch::Tensor& hidden) override;
  /// adaptive_softmax_terms: the tails run only where targets need them.
  OutputTerms terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                    bool predict) override;
  /// The argmax needs every tail on every position.
  bool argmax_is_cheap() const override { return false; }

  /// Number of tail clusters.
  int64_t clusters() const { return static_cast<int64_t>(bounds_.size()) - 1; }
  /// Cluster i covers ids [bound(i), bound(i + 1)); bound(0) is the head's shortlist size c₀.
  int64_t bound(int64_t i) const { return bounds_[i]; }

  torch::nn::Linear head{nullptr};  ///< D → c₀ + clusters
  /// Per cluster i: D → D/divⁱ⁺¹ (no bias), then → |cluster| (with bias).
  std::vector<torch::nn::Linear> tail_in, tail_out;

 private:
  std::vector<int64_t> bounds_;  ///< {c₀, c₁, …, V}
};
TORCH_MODULE(AdaptiveSoftmax);

/// Adaptive softmax: hidden [N,D] → log-probabilities over the whole vocabulary [N,V].
torch::Tensor adaptive_log_probs(AdaptiveSoftmaxImpl& layer, const torch::Tensor& hidden);

/// Adaptive softmax terms for hidden [N,D] and targets [N]: each tail runs only on the rows
/// whose target lies in its cluster. The smoothing term averages over the head, and over the
/// target's tail for tail words (label smoothing per softmax, not over the whole vocabulary).
/// `predicted` needs every tail on every row: pass `predict = false` to skip it (undefined).
OutputTerms adaptive_softmax_terms(AdaptiveSoftmaxImpl& layer, const torch::Tensor& hidden,
                                   const torch::Tensor& targets, bool predict = true);

}  // namespace atento::model
