#pragma once
// A beam step's candidates: of every continuation of each sentence's beams (a beam's score plus
// the log-probability of one more token), the best few, best first. The tensor form computes
// log_softmax over [R,V], sets the forbidden tokens to −inf, adds the beams' scores and takes
// top-k over [N, width·V]: it writes two [R,V] tensors and ATen's top-k copies every value
// into a list of pairs. On the CPU each row is read twice instead (its best allowed logits, then
// its softmax normaliser; model/logit_rows.h) and only those few are merged per sentence.
// Shape legend: N sentences, width W beams a sentence, R = N·W rows, V vocabulary.

#include <torch/types.h>

#include <cstdint>
#include <vector>

namespace atento::model {

/// Each sentence's `count` best continuations, best first.
struct BeamCandidates {
  int64_t count = 0;             ///< candidates per sentence
  std::vector<float> values;     ///< [N·count] beam score + the token's log-probability
  std::vector<int64_t> indices;  ///< [N·count] beam · V + token (beam within its sentence)
};

/// The min(count, W·V) best of scores[r] + log_softmax(logits[r])[t] over each sentence's W rows
/// r and the tokens t not in `forbidden` (the normaliser over all V), for logits [R,V] (float
/// or bfloat16) and scores [R] in rows of W per sentence. Where fewer tokens are allowed, the
/// list ends in −inf values (as forbidden continuations rank in the tensor form). Equals the
/// tensor form within float rounding of the values; equal values come in index order. CPU
/// logits without gradients take the row loops; anything else the tensor form.
BeamCandidates beam_candidates(const torch::Tensor& logits, const torch::Tensor& scores,
                               const torch::Tensor& forbidden, int64_t width, int64_t count);

}  // namespace atento::model
