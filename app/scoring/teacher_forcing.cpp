#include "app/scoring/teacher_forcing.h"

#include <torch/torch.h>

#include <algorithm>

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

namespace {

/// The output terms of a batch's real target positions, teacher forced.
struct RealPositionTerms {
  torch::Tensor host_rows;  ///< [N] long, on the host: flat index b·T + t of each real position
  torch::Tensor targets;    ///< [N] the reference ids, on the device
  model::OutputTerms terms;
};

RealPositionTerms real_position_terms(model::Seq2Seq& model, const data::Batch& batch,
                                      const torch::Device& device, bool count_correct) {
  auto src = to_device(batch.src, device);
  auto tgt_in = to_device(batch.tgt_in, device);
  auto tgt_keep = to_device(batch.tgt_keep, device);  // [B,T]: real positions of tgt_in, tgt_out
  auto encoded = model->encode(src, to_device(batch.src_keep, device));
  auto hidden = model->decode_hidden(encoded, tgt_in, tgt_keep);  // [B,T,D]
  // The real positions are found on the host (nonzero on the device would wait for it).
  RealPositionTerms out;
  out.host_rows = batch.tgt_keep.reshape({-1}).nonzero().squeeze(1);        // [B*T] → [N]
  auto rows = to_device(out.host_rows, device);                             // [N]
  auto real = hidden.reshape({-1, hidden.size(-1)}).index_select(0, rows);  // [N,D]
  out.targets = to_device(batch.tgt_out, device).reshape({-1}).index_select(0, rows);  // [N]
  out.terms = model->output_terms(real, out.targets, count_correct);
  return out;
}

/// Label smoothing (Szegedy et al. 2016) as torch's cross_entropy: ε spread uniformly over the
/// vocabulary (over the head and the target's tail with the adaptive softmax). [N] → [N].
torch::Tensor smoothed_losses(const model::OutputTerms& terms, double label_smoothing) {
  if (label_smoothing <= 0) return terms.nll;
  return (1.0 - label_smoothing) * terms.nll + label_smoothing * terms.smoothing;
}

}  // namespace

BatchObjective teacher_forced(model::Seq2Seq& model, const data::Batch& batch,
                              double label_smoothing, const torch::Device& device,
                              bool count_correct) {
  auto positions = real_position_terms(model, batch, device, count_correct);
  const auto& terms = positions.terms;
  const auto& targets = positions.targets;
  const auto& host_rows = positions.host_rows;

  BatchObjective out;
  out.loss = smoothed_losses(terms, label_smoothing).sum();
  out.nll_sum = terms.nll.sum().detach().to(torch::kDouble);
  if (terms.predicted.defined()) {
    out.correct = terms.predicted.eq(targets).sum();
    out.judged = host_rows.size(0);
  }
  out.tokens = host_rows.size(0);
  return out;
}

BatchObjective teacher_forced_static(model::Seq2Seq& model, const data::Batch& batch,
                                     double label_smoothing, bool count_correct) {
  auto encoded = model->encode(batch.src, batch.src_keep);
  auto hidden = model->decode_hidden(encoded, batch.tgt_in, batch.tgt_keep);  // [B,T,D]
  auto flat = hidden.reshape({-1, hidden.size(-1)});                          // [B*T,D]
  auto targets = batch.tgt_out.reshape({-1});                                 // [B*T]
  auto keep = batch.tgt_keep.reshape({-1});                                   // [B*T]
  auto terms = model->output_terms(flat, targets, count_correct);
  auto weight = keep.to(terms.nll.scalar_type());  // [B*T]: 1 real, 0 padding
  BatchObjective out;
  out.loss = (smoothed_losses(terms, label_smoothing) * weight).sum();
  out.nll_sum = (terms.nll * weight).sum().detach().to(torch::kDouble);
  if (terms.predicted.defined()) out.correct = terms.predicted.eq(targets).logical_and(keep).sum();
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

std::vector<double> cross_entropy_per_example(model::Seq2Seq& model,
                                              const std::vector<data::Example>& examples,
                                              int64_t batch_size, const torch::Device& device) {
  model::EvalModeGuard eval_mode(*model);
  data::BatchOptions options;
  options.batch_size = std::max<int64_t>(1, batch_size);
  std::vector<double> entropy(examples.size(), 0.0);
  for (const auto& indices : data::make_batches(examples, options, 0, 0, /*shuffle=*/true)) {
    const auto batch = data::collate(examples, indices);
    auto positions = real_position_terms(model, batch, device, /*count_correct=*/false);
    // Each position's −log p added to its row: b = (b·T + t) / T.
    const int64_t length = batch.tgt_keep.size(1);
    auto example_rows = to_device(positions.host_rows.div(length, "floor"), device);
    auto sums =
        torch::zeros({batch.tgt_keep.size(0)}, positions.terms.nll.options().dtype(torch::kDouble))
            .index_add_(0, example_rows, positions.terms.nll.to(torch::kDouble))
            .to(torch::kCPU)
            .contiguous();
    auto counts = batch.tgt_keep.sum(1).to(torch::kDouble).contiguous();  // [B], at least 1
    const double* sum = sums.data_ptr<double>();
    const double* count = counts.data_ptr<double>();
    for (size_t k = 0; k < indices.size(); ++k) {
      entropy[static_cast<size_t>(indices[k])] = sum[k] / std::max(1.0, count[k]);
    }
  }
  return entropy;
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
