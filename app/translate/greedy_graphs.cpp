#include "app/translate/greedy_graphs.h"

#include <torch/torch.h>

#include <algorithm>

#include "app/common/cuda_graph.h"
#include "model/eval_mode.h"
#include "model/static_greedy.h"

namespace atento {

namespace {

/// Replayed steps between two checks whether every row has ended (each check waits for the
/// device); eager steps check after each.
constexpr int64_t kStepsBetweenChecks = 8;

}  // namespace

struct GreedyGraphs::Bucket {
  model::StaticGreedy state;
  std::unique_ptr<CapturedWork> graph;  ///< null until captured, or when not capturing
};

GreedyGraphs::GreedyGraphs(model::Seq2Seq model, const model::SearchOptions& options,
                           const torch::Device& device, bool capture, int64_t max_graphs)
    : model_(std::move(model)),
      options_(options),
      device_(device),
      capture_(capture && device.is_cuda() && cuda_graphs_built()),
      max_graphs_(max_graphs) {
  TORCH_CHECK(options.beam == 1, "GreedyGraphs: greedy decoding only (beam 1)");
}

GreedyGraphs::~GreedyGraphs() = default;

GreedyGraphs::Bucket& GreedyGraphs::bucket_for(int64_t rows, int64_t src_len) {
  auto& bucket = buckets_[{rows, src_len}];
  if (!bucket) {
    // The longest output any source of the bucket may take: limits grow with the length.
    const int64_t capacity = model::output_limit(model_->options(), src_len, options_);
    bucket = std::make_unique<Bucket>();
    bucket->state = model::make_static_greedy(model_, rows, src_len, capacity, options_, device_);
  }
  return *bucket;
}

std::vector<std::vector<model::Hypothesis>> GreedyGraphs::run(const torch::Tensor& src) {
  TORCH_CHECK(src.dim() == 2, "GreedyGraphs::run: source must be [B,S], got ", src.sizes());
  if (src.size(0) == 0) return {};
  model::EvalModeGuard eval_mode(*model_);
  const int64_t rows = power_of_two_at_least(src.size(0));
  // Up to a multiple of 8, within the positions the model has (a longer source is refused by
  // the encoder as it would be without graphs).
  const int64_t src_len =
      std::max<int64_t>(1, bucket_length(src.size(1), model_->options().max_len));
  const bool known = buckets_.count({rows, src_len}) > 0;
  // Beyond the graphs' budget: eager steps on buffers of the batch's own shape, not kept.
  if (capture_ && !known && captured_ >= max_graphs_) {
    return model::static_greedy_search(model_, src, options_);
  }
  Bucket& bucket = bucket_for(rows, src_len);
  model::StaticGreedy& state = bucket.state;
  model::load_static_greedy(model_, state, src);
  auto step = [&] { model::static_greedy_step(model_, state); };
  const int64_t check_every = capture_ ? kStepsBetweenChecks : 1;
  for (int64_t steps = 0; steps < state.capacity(); ++steps) {
    if (steps > 0 && steps % check_every == 0 && model::static_greedy_done(state)) break;
    // The bucket's first step is run (the warm-up) and captured for every step after it.
    if (run_or_replay(bucket.graph, capture_, step, device_)) captured_++;
  }
  return model::static_greedy_results(state, src.size(0));
}

}  // namespace atento
