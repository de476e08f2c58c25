#include "app/teacher_forcing.h"

#include <torch/torch.h>

#include "model/eval_mode.h"

namespace atento {

TeacherForcedTotals& TeacherForcedTotals::operator+=(const TeacherForcedTotals& other) {
  nll_sum += other.nll_sum;
  correct += other.correct;
  judged += other.judged;
  tokens += other.tokens;
  return *this;
}

BatchObjective teacher_forced(model::Seq2Seq& model, const data::Batch& batch,
                              double label_smoothing, const torch::Device& device,
                              bool count_correct) {
  auto src = batch.src.to(device);
  auto tgt_in = batch.tgt_in.to(device);
  auto tgt_keep = batch.tgt_keep.to(device);  // [B,T]: real positions of tgt_in and tgt_out
  auto encoded = model->encode(src, batch.src_keep.to(device));
  auto hidden = model->decode_hidden(encoded, tgt_in, tgt_keep);                // [B,T,D]
  auto rows = tgt_keep.reshape({-1}).nonzero().squeeze(1);                      // [B*T] → [N]
  auto real = hidden.reshape({-1, hidden.size(-1)}).index_select(0, rows);      // [N,D]
  auto targets = batch.tgt_out.to(device).reshape({-1}).index_select(0, rows);  // [N]
  auto terms = model->output_terms(real, targets, count_correct);

  // Label smoothing (Szegedy et al. 2016) as torch's cross_entropy: ε spread uniformly over
  // the vocabulary (over the head and the target's tail with the adaptive softmax).
  auto loss = label_smoothing > 0
                  ? ((1.0 - label_smoothing) * terms.nll + label_smoothing * terms.smoothing).sum()
                  : terms.nll.sum();
  BatchObjective out;
  out.loss = loss;
  out.totals.nll_sum = terms.nll.sum().item<double>();
  if (terms.predicted.defined()) {
    out.totals.correct = terms.predicted.eq(targets).sum().item<int64_t>();
    out.totals.judged = rows.size(0);
  }
  out.totals.tokens = rows.size(0);
  return out;
}

TeacherForcedTotals evaluate_teacher_forced(model::Seq2Seq& model,
                                            const std::vector<data::Example>& examples,
                                            int64_t batch_tokens, const torch::Device& device) {
  model::EvalModeGuard eval_mode(*model);
  data::BatchOptions options;
  options.batch_size = 0;
  options.batch_tokens = batch_tokens;
  TeacherForcedTotals totals;
  // Length bucketing keeps padding small; the order does not matter for sums.
  for (const auto& indices : data::make_batches(examples, options, 0, 0, /*shuffle=*/true)) {
    totals += teacher_forced(model, data::collate(examples, indices), 0.0, device).totals;
  }
  return totals;
}

std::vector<data::Example> encode_pairs(const data::Vocabularies& vocab,
                                        const std::vector<data::Pair>& pairs) {
  std::vector<data::Example> examples;
  examples.reserve(pairs.size());
  for (const auto& pair : pairs) {
    examples.push_back({vocab.encode_source(pair.src), vocab.encode_target(pair.tgt)});
  }
  return examples;
}

}  // namespace atento
