#pragma once
// Teacher-forced loss and next-word accuracy: the training objective and the book's metric.
// Accuracy counts every non-padding target position ([end] and [UNK] included), as the book.

#include <torch/types.h>

#include <cstdint>
#include <limits>
#include <vector>

#include "app/common/config.h"
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
    return judged ? static_cast<double>(correct) / judged
                  : std::numeric_limits<double>::quiet_NaN();
  }
  TeacherForcedTotals& operator+=(const TeacherForcedTotals& other);
};

/// One batch's objective: `loss` is the label-smoothed cross-entropy summed over the real
/// target positions (divide by the step's token count before backward). The sums stay on the
/// model's device: nothing here waits for it.
struct BatchObjective {
  torch::Tensor loss;
  torch::Tensor nll_sum;  ///< [] double: −log p summed, no smoothing
  torch::Tensor correct;  ///< [] long: argmax hits; undefined when not counted
  int64_t judged = 0;     ///< positions whose argmax was computed
  int64_t tokens = 0;     ///< non-padding target positions
};

/// TeacherForcedTotals whose sums live on the device: add() queues work and never waits;
/// read() copies them to the host (the one synchronisation on CUDA). The sums are the same
/// double additions in the same order as TeacherForcedTotals' own.
struct DeviceTotals {
  torch::Tensor nll_sum;  ///< [] double; undefined until the first add
  torch::Tensor correct;  ///< [] long; undefined until a batch counts it
  int64_t judged = 0;
  int64_t tokens = 0;
  void add(const BatchObjective& batch);
  TeacherForcedTotals read() const;
};

/// `tensor` on `device`: on CUDA copied from pinned memory without blocking the host.
torch::Tensor to_device(const torch::Tensor& tensor, const torch::Device& device);

/// Runs the model on `batch` (moved to `device`), projecting only non-padding positions
/// onto the vocabulary (padding logits would be computed and thrown away). `count_correct =
/// false` lets the adaptive softmax skip the full argmax (judged stays 0 then).
BatchObjective teacher_forced(model::Seq2Seq& model, const data::Batch& batch,
                              double label_smoothing, const torch::Device& device,
                              bool count_correct = true);

/// teacher_forced for a batch already on the model's device and of a shape fixed by the caller
/// (a CUDA graph's static buffers, app/train/step_graphs.h): every position runs through the
/// output layer and padding is weighted 0 instead of left out, so nothing depends on the data's
/// values on the host and nothing waits for the device. `tokens` and `judged` stay 0 (the
/// caller knows its batch's). Equal to teacher_forced up to the order of the additions.
BatchObjective teacher_forced_static(model::Seq2Seq& model, const data::Batch& batch,
                                     double label_smoothing, bool count_correct = true);

/// Loss and next-word accuracy over `examples`, in eval mode without gradients, the forward
/// passes at `precision`.
TeacherForcedTotals evaluate_teacher_forced(model::Seq2Seq& model,
                                            const std::vector<data::Example>& examples,
                                            int64_t batch_tokens, const torch::Device& device,
                                            Precision precision = Precision::kFp32);

/// Each example's teacher-forced cross-entropy per target token (nats, no smoothing, [end]
/// included: −log p(target | source) / its length), in input order; eval mode, no gradients,
/// fp32, batches of `batch_size` examples of similar length. The forced-decoding score of
/// corpus filtering (Junczys-Dowmunt 2018).
std::vector<double> cross_entropy_per_example(model::Seq2Seq& model,
                                              const std::vector<data::Example>& examples,
                                              int64_t batch_size, const torch::Device& device);

/// Tokenizes pairs into examples (source cut to src_len, target [bos] … [eos] cut to tgt_len).
std::vector<data::Example> encode_pairs(const data::Vocabularies& vocab,
                                        const std::vector<data::Pair>& pairs);

}  // namespace atento
