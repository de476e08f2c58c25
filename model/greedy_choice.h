#pragma once
// A greedy decoding step's choice: each row's best allowed token and that token's
// log-probability under the softmax over the whole vocabulary. The tensor form (log_softmax over
// [B,V], forbidden tokens set to -inf, max) writes a [B,V] tensor of log-probabilities to read
// back one value a row, and its max with indices runs one element at a time: at 32 rows of an
// 8,000-token vocabulary that is a fifth of an int8 greedy step. On the CPU this reads each row
// twice (its largest logits, then the sum of exponentials) and writes nothing else.
// Shape legend: B rows, V vocabulary.

#include <torch/types.h>

namespace atento::model {

/// Each row's choice: the best allowed token and its log-probability.
struct GreedyChoice {
  torch::Tensor log_prob;  ///< [B] float: logit − logsumexp over all V logits of the row
  torch::Tensor token;     ///< [B] long: the first allowed index of the row's largest logit
};

/// The choice of each row of `logits` [B,V] (float or bfloat16; computed in float) among the
/// tokens not in `forbidden` (a 1-D long tensor of ids in [0,V), not all of them), normalising
/// over all V. Equals log_softmax(logits).index_fill_(1, forbidden, -inf).max(-1) within float
/// rounding of the log-probability; the token is the argmax of the logits themselves (ties: the
/// first). CPU logits without gradients take the row loops of model/logit_rows.h (AVX2 where the
/// CPU has it); anything else (GPUs, gradients) the tensor form.
GreedyChoice greedy_choice(const torch::Tensor& logits, const torch::Tensor& forbidden);

}  // namespace atento::model
