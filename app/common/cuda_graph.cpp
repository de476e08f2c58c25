#include "app/common/cuda_graph.h"

#include <algorithm>
#include <stdexcept>

#if ATENTO_WITH_CUDA_GRAPHS
#include <ATen/autocast_mode.h>
#include <ATen/cuda/CUDAEvent.h>
#include <ATen/cuda/CUDAGraph.h>
#include <c10/cuda/CUDAFunctions.h>
#include <c10/cuda/CUDAGuard.h>
#include <c10/cuda/CUDAStream.h>
#endif

namespace atento {

#if ATENTO_WITH_CUDA_GRAPHS

namespace {

class CudaGraph : public CapturedWork {
 public:
  void replay() override { graph.replay(); }
  at::cuda::CUDAGraph graph;
};

/// `waiter` waits for the work queued so far on `stream`.
void wait_for(const c10::cuda::CUDAStream& waiter, const c10::cuda::CUDAStream& stream) {
  at::cuda::CUDAEvent done;
  done.record(stream);
  done.block(waiter);
}

/// Autocast's weight cache off while alive: a cached bf16 copy would be captured as a
/// pointer, not as the cast that makes it.
class AutocastCacheOff {
 public:
  AutocastCacheOff() : was_(at::autocast::is_autocast_cache_enabled()) {
    at::autocast::set_autocast_cache_enabled(false);
  }
  ~AutocastCacheOff() { at::autocast::set_autocast_cache_enabled(was_); }

 private:
  bool was_;
};

}  // namespace

bool cuda_graphs_built() { return true; }

std::unique_ptr<CapturedWork> capture_cuda_graph(const std::function<void()>& work,
                                                 const torch::Device& device) {
  if (!device.is_cuda()) throw std::runtime_error("CUDA graphs need a CUDA device");
  c10::cuda::CUDAGuard on_device(device.has_index() ? device.index() : 0);
  auto current = c10::cuda::getCurrentCUDAStream();
  auto side = c10::cuda::getStreamFromPool();
  auto captured = std::make_unique<CudaGraph>();
  wait_for(side, current);
  {
    c10::cuda::CUDAStreamGuard on_side(side);
    work();  // the warm-up, a real run
    c10::cuda::device_synchronize();
    AutocastCacheOff cache_off;
    captured->graph.capture_begin();
    try {
      work();
    } catch (...) {
      try {
        captured->graph.capture_end();
      } catch (...) {
      }
      throw;
    }
    captured->graph.capture_end();
  }
  wait_for(current, side);
  return captured;
}

#else

bool cuda_graphs_built() { return false; }

std::unique_ptr<CapturedWork> capture_cuda_graph(const std::function<void()>&,
                                                 const torch::Device&) {
  throw std::runtime_error("CUDA graphs need a LibTorch built with CUDA; this one has none");
}

#endif

bool run_or_replay(std::unique_ptr<CapturedWork>& graph, bool capture,
                   const std::function<void()>& work, const torch::Device& device) {
  if (!capture) {
    work();
    return false;
  }
  if (graph) {
    graph->replay();
    return false;
  }
  graph = capture_cuda_graph(work, device);  // the first run: the warm-up, then the capture
  return true;
}

int64_t bucket_length(int64_t length, int64_t cap) {
  const int64_t rounded = (length + 7) / 8 * 8;
  return std::max(length, std::min(rounded, cap));
}

int64_t power_of_two_at_least(int64_t value) {
  int64_t power = 1;
  while (power < value) power *= 2;
  return power;
}

}  // namespace atento
