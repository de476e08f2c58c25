#pragma once
// Teacher-forced loss and next-word accuracy: the training objective and the book's metric.
// Accuracy counts every non-padding target position ([end] and [UNK] included), as the book.

#include <torch/types.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "data/batch.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "model/seq2seq.h"

namespace atento {

/// Sums over target positions; merge partial sums with `+=`.
struct TeacherForcedTotals {
  double nll_sum = 0.0;  ///< negative log-likelihood in nats, no smoothing
  int64_t correct = 0;   ///< positions whose argmax is the reference token
  int64_t judged = 0;    ///< positions whose argmax was computed (all, unless skipped)
  int64_t tokens = 0;    ///< non-padding target positions
  double loss() const { return tokens ? nll_sum / tokens : 0.0; }
  /// correct / judged; NaN when no argmax was computed.
  double accuracy() const {
    return judged ? static_cast<double>(correct) / judged : std::numeric_limits<double>::quiet_NaN();
  }
  TeacherForcedTotals& operator+=(const TeacherForcedTotals& other);
};

/// One batch's objective: `loss` is the label-smoothed cross-entropy summed over the real
/// target positions (divide by the step's token count before backward).
struct BatchObjective {
  torch::Tensor loss;
  TeacherForcedTotals totals;
};

/// Runs the model on `batch` (moved to `device`), projecting only non-padding positions
/// onto the vocabulary (padding logits would be computed and thrown away). `count_correct =
/// false` lets the adaptive softmax skip the full argmax (totals.judged stays 0 then).
BatchObjective teacher_forced(model::Seq2Seq& model, const data::Batch& batch,
                              double label_smoothing, const torch::Device& device,
                              bool count_correct = true);

/// Loss and next-word accuracy over `examples`, in eval mode without gradients.
TeacherForcedTotals evaluate_teacher_forced(model::Seq2Seq& model,
                                            const std::vector<data::Example>& examples,
                                            int64_t batch_tokens, const torch::Device& device);

/// Tokenizes pairs into examples (source cut to src_len, target [bos] … [eos] cut to tgt_len).
std::vector<data::Example> encode_pairs(const data::Vocabularies& vocab,
                                        const std::vector<data::Pair>& pairs);

}  // namespace atento
