#pragma once
// Loops over one row of next-token logits on the CPU, for the decoding searches' choices
// (model/greedy_choice.h, model/beam_candidates.h): a row's best allowed logits, and its
// softmax normaliser, without writing a row of log-probabilities. AVX2 with FMA where the CPU
// has them, plain loops elsewhere.

#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace atento::model {

/// Whether these logits [B,V] take the row loops: a CPU tensor of fp32 or bfloat16 (read as
/// fp32) with no gradient to record.
bool cpu_logits_path(const torch::Tensor& logits);

/// The ids of `forbidden` (1-D, any integer type) sorted, each once; an error unless every id
/// lies in [0, vocab) and at least one token of the vocabulary is allowed.
std::vector<int64_t> sorted_forbidden(const torch::Tensor& forbidden, int64_t vocab);

/// A row's best allowed logits, best first; equal logits in index order.
struct BestLogits {
  std::vector<float> values;
  std::vector<int64_t> indices;
};

/// The min(m, allowed) best logits of row[0, vocab) outside the sorted `forbidden` ids into
/// `best` (cleared first). NaN logits are never chosen.
void best_logits(const float* row, int64_t vocab, const std::vector<int64_t>& forbidden, int64_t m,
                 BestLogits& best);

/// log Σ_v exp(row_v) as top + log_sum with top the row's largest logit: a logit's
/// log-probability is (logit − top) − log_sum, as log_softmax computes it.
struct Normaliser {
  float top;
  float log_sum;
  float log_prob(float logit) const { return (logit - top) - log_sum; }
};

/// The normaliser of row[0, vocab) over every logit (forbidden ones included, as log_softmax
/// normalises). `top` must be the row's largest logit; a row of −inf gives NaN log_sum.
Normaliser row_normaliser(const float* row, int64_t vocab, float top);

/// The largest of `best` (a row's best allowed logit) and the row's forbidden logits.
float row_top(const float* row, float best, const std::vector<int64_t>& forbidden);

}  // namespace atento::model
