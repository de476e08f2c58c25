#include "app/train/step_graphs.h"

#include <torch/torch.h>

#include <algorithm>

#include "app/common/cuda_graph.h"

namespace atento {
namespace {

StepBuffers make_buffers(const StepShape& shape, const torch::Device& device) {
  const auto longs = torch::TensorOptions(torch::kLong).device(device);
  const auto bools = torch::TensorOptions(torch::kBool).device(device);
  const auto doubles = torch::TensorOptions(torch::kDouble).device(device);
  StepBuffers b;
  b.batch.src = torch::zeros({shape.rows, shape.src_len}, longs);       // [R,S]
  b.batch.src_keep = torch::zeros({shape.rows, shape.src_len}, bools);  // [R,S]
  b.batch.tgt_in = torch::zeros({shape.rows, shape.tgt_len}, longs);    // [R,T]
  b.batch.tgt_out = torch::zeros({shape.rows, shape.tgt_len}, longs);   // [R,T]
  b.batch.tgt_keep = torch::zeros({shape.rows, shape.tgt_len}, bools);  // [R,T]
  b.loss_divisor = torch::ones({}, torch::TensorOptions(torch::kFloat).device(device));
  b.step_loss = torch::zeros({}, doubles);
  b.nll_sum = torch::zeros({}, doubles);
  b.correct = torch::zeros({}, longs);
  return b;
}

}  // namespace

StepShape step_bucket(const data::Batch& batch, int64_t max_src, int64_t max_tgt) {
  StepShape shape;
  shape.rows = power_of_two_at_least(batch.src.size(0));
  shape.src_len = bucket_length(batch.src.size(1), max_src);
  shape.tgt_len = bucket_length(batch.tgt_in.size(1), max_tgt);
  return shape;
}

struct StepGraphs::Bucket {
  StepBuffers buffers;
  std::unique_ptr<CapturedWork> graph;  ///< null until captured, or when not capturing
};

StepGraphs::StepGraphs(Step step, const torch::Device& device, bool capture, int64_t max_src,
                       int64_t max_tgt, int64_t max_graphs)
    : step_(std::move(step)),
      device_(device),
      capture_(capture && device.is_cuda() && cuda_graphs_built()),
      max_src_(max_src),
      max_tgt_(max_tgt),
      max_graphs_(max_graphs) {}

StepGraphs::~StepGraphs() = default;

StepGraphs::Bucket& StepGraphs::bucket_for(const StepShape& shape) {
  auto& bucket = buckets_[shape];
  if (!bucket) {
    bucket = std::make_unique<Bucket>();
    bucket->buffers = make_buffers(shape, device_);
  }
  return *bucket;
}

void StepGraphs::fill(StepBuffers& buffers, const data::Batch& batch, double divisor) {
  const auto& shape = buffers.batch.src.sizes();
  const auto padded = data::pad_batch(batch, shape[0], shape[1], buffers.batch.tgt_in.size(1));
  // Copied in place (a graph reads these very tensors); on CUDA from pinned memory, the host
  // not waiting.
  auto copy_in = [](torch::Tensor& to, const torch::Tensor& from) {
    to.copy_(to.is_cuda() ? from.pin_memory() : from, /*non_blocking=*/to.is_cuda());
  };
  copy_in(buffers.batch.src, padded.src);
  copy_in(buffers.batch.src_keep, padded.src_keep);
  copy_in(buffers.batch.tgt_in, padded.tgt_in);
  copy_in(buffers.batch.tgt_out, padded.tgt_out);
  copy_in(buffers.batch.tgt_keep, padded.tgt_keep);
  buffers.batch.target_tokens = batch.target_tokens;
  buffers.loss_divisor.fill_(divisor);
}

const StepBuffers& StepGraphs::run(const data::Batch& batch, double divisor) {
  const StepShape shape = step_bucket(batch, max_src_, max_tgt_);
  const bool known = buckets_.count(shape) > 0;
  if (capture_ && !known && captured_ >= static_cast<size_t>(max_graphs_)) {
    // Beyond the graphs' budget: an eager step on buffers of its own shape, not kept.
    StepBuffers scratch = make_buffers(shape, device_);
    fill(scratch, batch, divisor);
    step_(scratch);
    eager_steps_++;
    overflow_ = std::move(scratch);
    return overflow_;
  }
  Bucket& bucket = bucket_for(shape);
  fill(bucket.buffers, batch, divisor);
  // The bucket's first step is run (the warm-up) and captured for the steps after it.
  const auto step = [&] { step_(bucket.buffers); };
  if (run_or_replay(bucket.graph, capture_, step, device_)) captured_++;
  if (!capture_) eager_steps_++;
  return bucket.buffers;
}

}  // namespace atento
