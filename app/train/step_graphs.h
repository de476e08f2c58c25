#pragma once
// Training steps of fixed shapes, for CUDA graphs (train.cuda_graphs). The small models are
// launch-bound on a GPU: a step is hundreds of short kernels. Each batch is padded to its
// bucket (lengths up to a multiple of 8, rows up to a power of two) and copied into that
// bucket's device buffers; the bucket's first step is run and captured (cuda_graph.h), every
// later one replays the graph with one launch. Where the build or the device has no CUDA
// graphs (the CPU), every step runs eagerly on the buffers: the same arithmetic, which is
// what the CPU's tests check.

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <tuple>

#include "data/batch.h"

namespace atento {

class CapturedWork;

/// A step's padded shape: rows × source length, rows × target length.
struct StepShape {
  int64_t rows = 0, src_len = 0, tgt_len = 0;
  bool operator<(const StepShape& other) const {
    return std::tie(rows, src_len, tgt_len) < std::tie(other.rows, other.src_len, other.tgt_len);
  }
};

/// The bucket of a batch: each length rounded up to a multiple of 8 (at most max_src /
/// max_tgt, the longest the batcher makes), the rows up to a power of two.
StepShape step_bucket(const data::Batch& batch, int64_t max_src, int64_t max_tgt);

/// What a captured step reads and writes: the bucket's device tensors.
struct StepBuffers {
  data::Batch batch;           ///< padded to the bucket's shape, on the device
  torch::Tensor loss_divisor;  ///< [] float: what the summed loss is divided by (target tokens)
  torch::Tensor step_loss;     ///< [] double: the loss divided (the step writes it)
  torch::Tensor nll_sum;       ///< [] double: −log p summed over real positions (written)
  torch::Tensor correct;       ///< [] long: argmax hits over real positions (written)
};

class StepGraphs {
 public:
  /// Queues one whole step (forward, backward, optimiser update) on `buffers`, writing its
  /// outputs into them in place; must not read device values on the host.
  using Step = std::function<void(StepBuffers& buffers)>;

  /// `capture`: capture CUDA graphs (needs cuda_graphs_built() and a CUDA device); else
  /// every step runs eagerly. At most `max_graphs` buckets are captured; a batch of any other
  /// bucket then runs eagerly on scratch buffers of its shape.
  StepGraphs(Step step, const torch::Device& device, bool capture, int64_t max_src, int64_t max_tgt,
             int64_t max_graphs = 64);
  ~StepGraphs();

  /// Runs the step on `batch` (on the host) with loss_divisor `divisor`; returns the buffers
  /// that hold its outputs until the next run.
  const StepBuffers& run(const data::Batch& batch, double divisor);

  /// Graphs captured so far.
  int64_t graphs() const { return static_cast<int64_t>(captured_); }
  /// Steps that ran eagerly: every step without capture; with it, those beyond max_graphs.
  int64_t eager_steps() const { return eager_steps_; }

 private:
  struct Bucket;
  Bucket& bucket_for(const StepShape& shape);
  void fill(StepBuffers& buffers, const data::Batch& batch, double divisor);

  Step step_;
  torch::Device device_;
  bool capture_;
  int64_t max_src_, max_tgt_, max_graphs_;
  std::map<StepShape, std::unique_ptr<Bucket>> buckets_;
  StepBuffers overflow_;  ///< the last step beyond max_graphs
  size_t captured_ = 0;
  int64_t eager_steps_ = 0;
};

}  // namespace atento
