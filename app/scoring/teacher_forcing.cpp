#include "app/scoring/teacher_forcing.h"

#include <torch/torch.h>

#include "app/common/precision.h"
#include "model/eval_mode.h"

namespace atento {

TeacherForcedTotals& TeacherForcedTotals::operator+=(const TeacherForcedTotals& other) {
  nll_sum += other.nll_sum;
  correct += other.correct;
  judged += other.judged;
  tokens += other.tokens;
  return *this;
}

void DeviceTotals::add(const BatchObjective& batch) {
  nll_sum = nll_sum.defined() ? nll_sum + batch.nll_sum : batch.nll_sum;
  if (batch.correct.defined()) {
    correct = correct.defined() ? correct + batch.correct : batch.correct;
  }
  judged += batch.judged;
  tokens += batch.tokens;
}

TeacherForcedTotals DeviceTotals::read() const {
  TeacherForcedTotals totals;
  if (nll_sum.defined()) totals.nll_sum = nll_sum.item<double>();
  if (correct.defined()) totals.correct = correct.item<int64_t>();
  totals.judged = judged;
  totals.tokens = tokens;
  return totals;
}

torch::Tensor to_device(const torch::Tensor& tensor, const torch::Device& device) {
  if (!device.is_cuda()) return tensor.to(device);
  return tensor.pin_memory().to(device, /*non_blocking=*/true);
}

BatchObjective teacher_forced(model::Seq2Seq& model, const data::Batch& batch,
                              double label_smoothing, const torch::Device& device,
                              bool count_correct) {
  auto src = to_device(batch.src, device);
  auto tgt_in = to_device(batch.tgt_in, device);
  auto tgt_keep = to_device(batch.tgt_keep, device);  // [B,T]: real positions of tgt_in, tgt_out
  auto encoded = model->encode(src, to_device(batch.src_keep, device));
  auto hidden = model->decode_hidden(encoded, tgt_in, tgt_keep);  // [B,T,D]
  // The real positions are found on the host (nonzero on the device would wait for it).
  auto host_rows = batch.tgt_keep.reshape({-1}).nonzero().squeeze(1);       // [B*T] → [N]
  auto rows = to_device(host_rows, device);                                 // [N]
  auto real = hidden.reshape({-1, hidden.size(-1)}).index_select(0, rows);  // [N,D]
  auto targets = to_device(batch.tgt_out, device).reshape({-1}).index_select(0, rows);  // [N]
  auto terms = model->output_terms(real, targets, count_correct);

  // Label smoothing (Szegedy et al. 2016) as torch's cross_entropy: ε spread uniformly over
  // the vocabulary (over the head and the target's tail with the adaptive softmax).
  auto loss = label_smoothing > 0
                  ? ((1.0 - label_smoothing) * terms.nll + label_smoothing * terms.smoothing).sum()
                  : terms.nll.sum();
  BatchObjective out;
  out.loss = loss;
  out.nll_sum = terms.nll.sum().detach().to(torch::kDouble);
  if (terms.predicted.defined()) {
    out.correct = terms.predicted.eq(targets).sum();
    out.judged = host_rows.size(0);
  }
  out.tokens = host_rows.size(0);
  return out;
}

TeacherForcedTotals evaluate_teacher_forced(model::Seq2Seq& model,
                                            const std::vector<data::Example>& examples,
                                            int64_t batch_tokens, const torch::Device& device,
                                            Precision precision) {
  model::EvalModeGuard eval_mode(*model);
  AutocastGuard autocast(precision, device);
  data::BatchOptions options;
  options.batch_size = 0;
  options.batch_tokens = batch_tokens;
  DeviceTotals totals;
  // Length bucketing keeps padding small; the order does not matter for sums.
  for (const auto& indices : data::make_batches(examples, options, 0, 0, /*shuffle=*/true)) {
    totals.add(teacher_forced(model, data::collate(examples, indices), 0.0, device));
  }
  return totals.read();
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
