#pragma once
// What data-parallel training exchanges through a ProcessGroup: the initial weights (from rank
// 0), the gradient buckets (gradient_reducer.h sums them), and the sums behind reported figures.
// With a group of one process every function returns at once, changing nothing.

#include <torch/nn/module.h>
#include <torch/types.h>

#include <cstdint>
#include <vector>

#include "app/distributed/process_group.h"
#include "app/scoring/metrics.h"
#include "app/scoring/teacher_forcing.h"

namespace atento {

/// Gradients travel in flat buckets of about this size (PyTorch DDP's default too).
inline constexpr int64_t kGradientBucketBytes = 25 << 20;

/// Parameter indices grouped into buckets: consecutive parameters of one dtype and device,
/// each bucket at most `bucket_bytes` unless one parameter alone is larger.
std::vector<std::vector<size_t>> gradient_buckets(const std::vector<torch::Tensor>& parameters,
                                                  int64_t bucket_bytes);

/// Rank 0's parameters and buffers into every rank's module.
void broadcast_weights(ProcessGroup& group, torch::nn::Module& module);

/// The sums of every rank's TeacherForcedTotals, on every rank.
TeacherForcedTotals all_reduce_totals(ProcessGroup& group, const TeacherForcedTotals& totals);

/// The sums of every rank's BleuStats (each rank's share of the sentences), on every rank.
BleuStats all_reduce_bleu_stats(ProcessGroup& group, const BleuStats& stats);

}  // namespace atento
