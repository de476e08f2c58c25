#pragma once
// Gradients summed over a data-parallel group while backward still runs. Parameters are
// grouped into buckets (data_parallel.h); a hook on each parameter notes its gradient, and as
// soon as every gradient of the next bucket in order is known, that bucket is flattened and its
// all-reduce started: the backend sends it in its own threads (Gloo) or stream (NCCL) while
// backward computes the earlier layers. Buckets start in the same order on every rank.

#include <torch/types.h>

#include <cstddef>
#include <cstdint>
#include <vector>

#include "app/distributed/data_parallel.h"
#include "app/distributed/process_group.h"

namespace atento {

class GradientReducer {
 public:
  GradientReducer(ProcessGroup& group, std::vector<torch::Tensor> parameters,
                  int64_t bucket_bytes = kGradientBucketBytes);
  ~GradientReducer();
  GradientReducer(const GradientReducer&) = delete;
  GradientReducer& operator=(const GradientReducer&) = delete;

  /// The next backward pass is the step's last (with train.accumulate > 1 the earlier ones
  /// only accumulate into .grad): its buckets start as their gradients arrive.
  void arm();
  /// After the step's last backward, or instead of it on a rank whose shard was empty: starts
  /// the buckets still waiting (parameters without a gradient count as zero), waits for every
  /// sum and leaves it in .grad, undefined where no rank computed a gradient (the optimizer
  /// skips those, as in one process). `extra` ([k] double, e.g. the step loss) is summed too.
  void finish(torch::Tensor& extra);

 private:
  void on_gradient(size_t index, const torch::Tensor& grad);
  /// Starts, in order, every bucket from next_ on whose gradients are all known.
  void start_ready_buckets();
  void start_bucket(size_t bucket);
  void reset();

  ProcessGroup& group_;
  std::vector<torch::Tensor> parameters_;
  std::vector<std::vector<size_t>> buckets_;
  std::vector<size_t> bucket_of_;       ///< per parameter
  std::vector<torch::Tensor> pending_;  ///< per parameter: its gradient for this step, once known
  std::vector<size_t> known_;           ///< per bucket: gradients known
  std::vector<torch::Tensor> flat_;     ///< per bucket: its message, once started
  size_t next_ = 0;                     ///< first bucket not yet started
  bool armed_ = false;
  std::vector<unsigned> hooks_;
};

}  // namespace atento
