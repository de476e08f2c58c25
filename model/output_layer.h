#pragma once
// The vocabulary output layer behind one interface: decoder hidden states in, scores over the
// target vocabulary and the training terms out. Implementations: FullSoftmax (its own
// projection), TiedSoftmax (the target embedding matrix; model/full_softmax.h) and
// AdaptiveSoftmax (model/adaptive_softmax.h). Callers never ask which one they hold.
// Shape legend: N positions, D d_model, V vocab.

#include <torch/nn/module.h>
#include <torch/types.h>

namespace atento::model {

/// Per-position objective terms, shared by every output layer.
struct OutputTerms {
  torch::Tensor nll;        ///< [N] −log p(target)
  torch::Tensor smoothing;  ///< [N] −mean log p over the softmax(es) the target passes through
  torch::Tensor predicted;  ///< [N] argmax id of the whole distribution (no gradient)
};

/// An output layer. Applies no dropout: the caller drops hidden units before it.
class OutputLayerImpl : public torch::nn::Module {
 public:
  /// hidden [..., D] → scores [..., V] whose log_softmax is log p: logits, or log-probabilities
  /// already (which log_softmax leaves unchanged).
  virtual torch::Tensor scores(const torch::Tensor& hidden) = 0;
  /// Training/evaluation terms at positions hidden [N,D] with targets [N]. The terms agree with
  /// log_softmax(scores(hidden)). `predict = false` lets a layer whose argmax is costly leave
  /// `predicted` undefined. The default: full_softmax_terms over scores(hidden).
  virtual OutputTerms terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                            bool predict);
  /// Whether `predicted` costs little beyond nll (false: worth skipping during training).
  virtual bool argmax_is_cheap() const { return true; }
};

/// Full softmax terms from scores [N,V] and targets [N]; `predicted` always filled.
OutputTerms full_softmax_terms(const torch::Tensor& scores, const torch::Tensor& targets);

}  // namespace atento::model
