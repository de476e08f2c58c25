#include "model/adaptive_softmax.h"

#include <string>
#include <utility>

#include "model/initialisation.h"
#include "model/projection.h"

namespace atento::model {

AdaptiveSoftmaxImpl::AdaptiveSoftmaxImpl(int64_t d_model, int64_t vocab,
                                         std::vector<int64_t> cutoffs, int64_t div)
    : bounds_(std::move(cutoffs)) {
  TORCH_CHECK(!bounds_.empty(), "adaptive softmax: needs at least one cutoff");
  TORCH_CHECK(div >= 1, "adaptive softmax: div must be at least 1, got ", div);
  for (size_t i = 0; i < bounds_.size(); ++i) {
    TORCH_CHECK(bounds_[i] > 0 && bounds_[i] < vocab && (i == 0 || bounds_[i] > bounds_[i - 1]),
                "adaptive softmax: cutoffs must increase strictly within (0, ", vocab, "), got ",
                bounds_[i], " at position ", i);
  }
  bounds_.push_back(vocab);
  head = register_module("head", glorot_linear(d_model, bounds_[0] + clusters()));
  int64_t width = d_model;
  for (int64_t i = 0; i < clusters(); ++i) {
    width = std::max<int64_t>(1, width / div);
    tail_in.push_back(register_module("tail_in" + std::to_string(i),
                                      glorot_linear(d_model, width, /*bias=*/false)));
    tail_out.push_back(register_module("tail_out" + std::to_string(i),
                                       glorot_linear(width, bounds_[i + 1] - bounds_[i])));
  }
}

namespace {

// hidden [N,D] → cluster i's log-probabilities within the cluster [N, |cluster i|].
torch::Tensor tail_log_probs(AdaptiveSoftmaxImpl& layer, int64_t i, const torch::Tensor& hidden) {
  auto narrow = torch::linear(hidden, layer.tail_in[i]->weight);  // [N,D] → [N,D/divⁱ⁺¹]
  return torch::log_softmax(dense(narrow, layer.tail_out[i]), -1,
                            torch::kFloat);  // → [N,|cluster|]
}

// Whole-vocabulary log-probabilities from the head's [N, c₀ + clusters] and every tail.
torch::Tensor whole_log_probs(AdaptiveSoftmaxImpl& layer, const torch::Tensor& head_lp,
                              const torch::Tensor& hidden) {
  const int64_t c0 = layer.bound(0);
  std::vector<torch::Tensor> parts{head_lp.narrow(-1, 0, c0)};  // [N,c₀]
  for (int64_t i = 0; i < layer.clusters(); ++i) {
    // log p(cluster i) [N,1] + log p(w | cluster i) [N,|cluster i|]
    parts.push_back(head_lp.narrow(-1, c0 + i, 1) + tail_log_probs(layer, i, hidden));
  }
  return torch::cat(parts, -1);  // [N,V]
}

}  // namespace

torch::Tensor AdaptiveSoftmaxImpl::scores(const torch::Tensor& hidden) {
  auto flat = hidden.reshape({-1, hidden.size(-1)});  // [..., D] → [M,D]
  auto logp = adaptive_log_probs(*this, flat);        // [M,V]
  auto shape = hidden.sizes().vec();
  shape.back() = logp.size(-1);
  return logp.view(shape);  // [M,V] → [..., V]
}

OutputTerms AdaptiveSoftmaxImpl::terms(const torch::Tensor& hidden, const torch::Tensor& targets,
                                       bool predict) {
  return adaptive_softmax_terms(*this, hidden, targets, predict);
}

torch::Tensor adaptive_log_probs(AdaptiveSoftmaxImpl& layer, const torch::Tensor& hidden) {
  return whole_log_probs(layer, torch::log_softmax(dense(hidden, layer.head), -1, torch::kFloat),
                         hidden);
}

OutputTerms adaptive_softmax_terms(AdaptiveSoftmaxImpl& layer, const torch::Tensor& hidden,
                                   const torch::Tensor& targets, bool predict) {
  TORCH_CHECK(hidden.dim() == 2 && targets.dim() == 1 && hidden.size(0) == targets.size(0),
              "adaptive softmax: expects hidden [N,D] and targets [N], got ", hidden.sizes(),
              " and ", targets.sizes());
  const int64_t c0 = layer.bound(0);
  auto head_lp =
      torch::log_softmax(dense(hidden, layer.head), -1, torch::kFloat);  // [N, c₀ + clusters]
  // The head entry each target goes through: itself, or its cluster's entry.
  auto head_target = targets.clone();  // [N]
  std::vector<torch::Tensor> rows_in(layer.clusters());
  for (int64_t i = 0; i < layer.clusters(); ++i) {
    auto in_cluster = targets.ge(layer.bound(i)).logical_and(targets.lt(layer.bound(i + 1)));
    head_target.masked_fill_(in_cluster, c0 + i);
    rows_in[i] = in_cluster.nonzero().squeeze(1);  // [Nᵢ]
  }
  OutputTerms terms;
  terms.nll = -head_lp.gather(1, head_target.unsqueeze(1)).squeeze(1);  // [N]
  terms.smoothing = -head_lp.mean(-1);                                  // [N]
  for (int64_t i = 0; i < layer.clusters(); ++i) {
    const auto& rows = rows_in[i];
    if (rows.size(0) == 0) continue;
    auto tail_lp = tail_log_probs(layer, i, hidden.index_select(0, rows));  // [Nᵢ,|cluster|]
    auto local = targets.index_select(0, rows).sub(layer.bound(i));         // [Nᵢ]
    terms.nll = terms.nll.index_add(0, rows, -tail_lp.gather(1, local.unsqueeze(1)).squeeze(1));
    terms.smoothing = terms.smoothing.index_add(0, rows, -tail_lp.mean(-1));
  }
  if (predict) {
    torch::NoGradGuard no_grad;
    terms.predicted = whole_log_probs(layer, head_lp.detach(), hidden).argmax(-1);  // [N]
  }
  return terms;
}

}  // namespace atento::model
