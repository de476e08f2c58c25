#pragma once
// A data-parallel group over PyTorch's c10d engine: TCPStore rendezvous at MASTER_ADDR:
// MASTER_PORT (rank 0 hosts it), then ProcessGroupGloo (CPU tensors, any network) or
// ProcessGroupNCCL (CUDA builds). A group of one process does no communication at all.
// Every failure of a collective (a peer that died, hung past the timeout, or a broken
// network) becomes a std::runtime_error that names this rank.

#include <torch/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/common/config.h"
#include "app/distributed/rank_environment.h"

namespace atento {

/// Whether this build can use `backend` ("gloo"/"nccl" compiled in).
bool backend_available(Backend backend);

/// The backend `backend` means on `device`: auto → gloo on the CPU, nccl on CUDA.
Backend resolve_backend(Backend backend, const torch::Device& device);

class ProcessGroup {
 public:
  /// One process, no peers: collectives return at once.
  ProcessGroup();
  ~ProcessGroup();
  ProcessGroup(ProcessGroup&&) noexcept;
  ProcessGroup& operator=(ProcessGroup&&) noexcept;

  /// Joins the group `env` describes (returns one process outside any group unless
  /// env.in_group).
  /// Throws std::runtime_error when the rendezvous fails: MASTER_PORT in use on rank 0, or a
  /// peer missing after `timeout`.
  static ProcessGroup join(const RankEnvironment& env, Backend backend, const torch::Device& device,
                           std::chrono::milliseconds timeout);

  int64_t rank() const { return rank_; }
  int64_t size() const { return size_; }
  bool is_main() const { return rank_ == 0; }
  /// A real group (of one or more ranks), as opposed to one process outside any group.
  bool distributed() const { return impl_ != nullptr; }
  /// The device collectives work on (the CPU for Gloo, the rank's GPU for NCCL).
  const torch::Device& device() const { return device_; }

  /// Sums each tensor over the group in place; all are in flight together, then awaited.
  void all_reduce_sum(std::vector<torch::Tensor>& tensors);
  /// Starts summing `tensor` over the group in place and returns at once (the backend works
  /// in its own threads or streams); wait_started() waits for every collective so started.
  void start_all_reduce_sum(const torch::Tensor& tensor);
  void wait_started();
  /// Element-wise maximum over the group, in place.
  void all_reduce_max(torch::Tensor& tensor);
  /// Rank `root`'s values into every rank's tensors, in place.
  void broadcast(std::vector<torch::Tensor>& tensors, int64_t root = 0);
  /// Returns when every rank has called it.
  void barrier();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  int64_t rank_ = 0;
  int64_t size_ = 1;
  torch::Device device_ = torch::kCPU;
};

}  // namespace atento
