#pragma once
// CUDA graphs (LibTorch's at::cuda::CUDAGraph) behind a header that needs no CUDA: a piece of
// device work captured once and replayed with one launch instead of one per kernel. Built where
// LibTorch has CUDA (ATENTO_WITH_CUDA_GRAPHS, set in CMakeLists.txt); elsewhere
// cuda_graphs_built() is false and capturing throws.

#include <torch/types.h>

#include <cstdint>
#include <functional>
#include <memory>

namespace atento {

/// Work captured by capture_cuda_graph.
class CapturedWork {
 public:
  virtual ~CapturedWork() = default;
  /// Queues the captured work again on the current stream, with the values its input tensors
  /// hold now and the default generator's seed now (dropout stays random).
  virtual void replay() = 0;
};

/// Whether this build can capture CUDA graphs (LibTorch built with CUDA).
bool cuda_graphs_built();

/// One run of `work` where a graph may hold it: eagerly without `capture`; else a replay of
/// `graph`, or, while `graph` is null, a run that captures it (capture_cuda_graph). Returns
/// whether this run captured.
bool run_or_replay(std::unique_ptr<CapturedWork>& graph, bool capture,
                   const std::function<void()>& work, const torch::Device& device);

/// A graph bucket's length for `length`: up to a multiple of 8, at most `cap` (the longest the
/// bucket may be), never below `length`.
int64_t bucket_length(int64_t length, int64_t cap);

/// The least power of two ≥ `value`: a graph bucket's rows.
int64_t power_of_two_at_least(int64_t value);

/// Runs `work` once on a side stream of `device` (a real run: LibTorch initialises lazily what
/// a capture must find ready) and then captures it, autocast's weight cache off, into a graph
/// with its own memory pool; the current stream then waits for the side stream. `work` must
/// queue device work only: no host reads of device values, no shapes that depend on them.
/// Throws std::runtime_error where cuda_graphs_built() is false or the capture fails.
std::unique_ptr<CapturedWork> capture_cuda_graph(const std::function<void()>& work,
                                                 const torch::Device& device);

}  // namespace atento
