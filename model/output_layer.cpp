#include "model/output_layer.h"

namespace atento::model {

OutputTerms OutputLayerImpl::terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                                   bool /*predict*/) {
  return full_softmax_terms(scores(hidden), targets);
}

OutputTerms full_softmax_terms(const torch::Tensor& scores, const torch::Tensor& targets) {
  // In fp32 whatever the scores' precision (bf16 under autocast); a no-op for fp32 scores.
  auto logp = torch::log_softmax(scores, -1, torch::kFloat);  // [N,V]
  OutputTerms terms;
  terms.nll = -logp.gather(1, targets.unsqueeze(1)).squeeze(1);  // [N]
  terms.smoothing = -logp.mean(-1);                              // [N]
  terms.predicted = scores.detach().argmax(-1);                  // [N]
  return terms;
}

}  // namespace atento::model
