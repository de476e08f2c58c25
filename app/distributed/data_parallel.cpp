#include "app/distributed/data_parallel.h"

#include <torch/torch.h>

namespace atento {

std::vector<std::vector<size_t>> gradient_buckets(const std::vector<torch::Tensor>& parameters,
                                                  int64_t bucket_bytes) {
  std::vector<std::vector<size_t>> buckets;
  int64_t bytes = 0;
  for (size_t i = 0; i < parameters.size(); ++i) {
    const auto& p = parameters[i];
    const int64_t size = p.numel() * static_cast<int64_t>(p.element_size());
    bool fits = !buckets.empty() && bytes + size <= bucket_bytes;
    if (fits) {
      const auto& first = parameters[buckets.back().front()];
      fits = first.scalar_type() == p.scalar_type() && first.device() == p.device();
    }
    if (!fits) {
      buckets.emplace_back();
      bytes = 0;
    }
    buckets.back().push_back(i);
    bytes += size;
  }
  return buckets;
}

void broadcast_weights(ProcessGroup& group, torch::nn::Module& module) {
  if (!group.distributed()) return;
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> tensors = module.parameters();
  for (auto& buffer : module.buffers()) tensors.push_back(buffer);
  group.broadcast(tensors, 0);
}

TeacherForcedTotals all_reduce_totals(ProcessGroup& group, const TeacherForcedTotals& totals) {
  if (!group.distributed()) return totals;
  // [4] double: exact for integer counts below 2^53.
  std::vector<torch::Tensor> sums{torch::tensor({totals.nll_sum, double(totals.correct),
                                                 double(totals.judged), double(totals.tokens)},
                                                torch::kDouble)
                                      .to(group.device())};
  group.all_reduce_sum(sums);
  auto host = sums[0].cpu();
  const double* v = host.data_ptr<double>();
  TeacherForcedTotals result;
  result.nll_sum = v[0];
  result.correct = static_cast<int64_t>(v[1]);
  result.judged = static_cast<int64_t>(v[2]);
  result.tokens = static_cast<int64_t>(v[3]);
  return result;
}

BleuStats all_reduce_bleu_stats(ProcessGroup& group, const BleuStats& stats) {
  if (!group.distributed()) return stats;
  // [10] double: exact for integer counts below 2^53.
  std::vector<double> flat;
  for (int64_t n : stats.correct) flat.push_back(static_cast<double>(n));
  for (int64_t n : stats.total) flat.push_back(static_cast<double>(n));
  flat.push_back(static_cast<double>(stats.sys_len));
  flat.push_back(static_cast<double>(stats.ref_len));
  std::vector<torch::Tensor> sums{torch::tensor(flat, torch::kDouble).to(group.device())};
  group.all_reduce_sum(sums);
  auto host = sums[0].cpu();
  const double* v = host.data_ptr<double>();
  BleuStats result;
  for (size_t n = 0; n < 4; ++n) {
    result.correct[n] = static_cast<int64_t>(v[n]);
    result.total[n] = static_cast<int64_t>(v[4 + n]);
  }
  result.sys_len = static_cast<int64_t>(v[8]);
  result.ref_len = static_cast<int64_t>(v[9]);
  return result;
}

}  // namespace atento
