#include "app/distributed/process_group.h"

#include <torch/version.h>

#include <csignal>
#include <stdexcept>
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <utility>

#ifdef ATENTO_WITH_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef ATENTO_WITH_NCCL
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

namespace atento {
namespace {

// LibTorch 2 split the process group into a front and per-device backends; the backends
// (ProcessGroupGloo, ProcessGroupNCCL) carry the collectives in both versions.
#if TORCH_VERSION_MAJOR >= 2
using Collectives = c10d::Backend;
#else
using Collectives = c10d::ProcessGroup;
#endif

const char* backend_name(Backend backend) {
  switch (backend) {
    case Backend::kGloo:
      return "gloo";
    case Backend::kNccl:
      return "nccl";
    default:
      return "auto";
  }
}

bool is_loopback(const std::string& address) {
  return address == "localhost" || address.rfind("127.", 0) == 0 || address == "::1";
}

c10::intrusive_ptr<c10d::Store> rendezvous(const RankEnvironment& env,
                                           std::chrono::milliseconds timeout) {
  c10d::TCPStoreOptions options;
  options.port = static_cast<std::uint16_t>(env.master_port);
  options.isServer = env.rank == 0;
  options.numWorkers = static_cast<std::size_t>(env.world_size);
  options.waitWorkers = true;
  options.timeout = timeout;
  return c10::make_intrusive<c10d::TCPStore>(env.master_addr, options);
}

#ifdef ATENTO_WITH_GLOO
/// Gloo's network device: $GLOO_SOCKET_IFNAME's interface when set, loopback for a group on
/// one machine, else the address this machine's hostname resolves to.
c10::intrusive_ptr<Collectives> gloo_group(const c10::intrusive_ptr<c10d::Store>& store,
                                           const RankEnvironment& env,
                                           std::chrono::milliseconds timeout) {
  auto options = c10d::ProcessGroupGloo::Options::create(timeout);
  const char* interface = std::getenv("GLOO_SOCKET_IFNAME");
  if (interface != nullptr && *interface != '\0') {
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForInterface(interface));
  } else if (is_loopback(env.master_addr)) {
    options->devices.push_back(c10d::ProcessGroupGloo::createDeviceForHostname("127.0.0.1"));
  } else {
    options->devices.push_back(c10d::ProcessGroupGloo::createDefaultDevice());
  }
  options->threads = 2;
  return c10::make_intrusive<c10d::ProcessGroupGloo>(store, env.rank, env.world_size, options);
}
#endif

#ifdef ATENTO_WITH_NCCL
c10::intrusive_ptr<Collectives> nccl_group(const c10::intrusive_ptr<c10d::Store>& store,
                                           const RankEnvironment& env,
                                           std::chrono::milliseconds timeout) {
  auto options = c10d::ProcessGroupNCCL::Options::create();
  options->timeout = timeout;
  return c10::make_intrusive<c10d::ProcessGroupNCCL>(store, env.rank, env.world_size, options);
}
#endif

[[noreturn]] void cannot_join(const std::string& name, const std::string& where,
                              const std::string& why) {
  throw std::runtime_error(name + ": cannot join the group at " + where + ": " + why +
                           " (is MASTER_PORT free on rank 0, and are all WORLD_SIZE ranks "
                           "started?)");
}

}  // namespace

struct ProcessGroup::Impl {
  c10::intrusive_ptr<c10d::Store> store;
  c10::intrusive_ptr<Collectives> group;
  std::chrono::milliseconds timeout{0};
  std::string name;                                     ///< "rank R of W (backend)", for errors
  std::vector<c10::intrusive_ptr<c10d::Work>> started;  ///< start_all_reduce_sum's, unawaited

  /// Runs `f` (a collective); any failure becomes an error naming this rank.
  template <class F>
  void guarded(const char* what, F&& f) const {
    try {
      f();
    } catch (const c10::Error& e) {
      fail(what, e.what_without_backtrace());
    } catch (const std::exception& e) {
      fail(what, e.what());
    }
  }
  [[noreturn]] void fail(const char* what, const std::string& why) const {
    throw std::runtime_error(name + ": " + what + " failed: " + why +
                             " (a peer rank stopped, hung longer than distributed.timeout_s, "
                             "or the network between ranks broke)");
  }
  void wait_all(std::vector<c10::intrusive_ptr<c10d::Work>>& works) const {
    for (auto& work : works) work->wait(timeout);
  }
};

bool backend_available(Backend backend) {
  switch (backend) {
#ifdef ATENTO_WITH_GLOO
    case Backend::kGloo:
      return true;
#endif
#ifdef ATENTO_WITH_NCCL
    case Backend::kNccl:
      return true;
#endif
    default:
      return false;
  }
}

Backend resolve_backend(Backend backend, const torch::Device& device) {
  if (backend != Backend::kAuto) return backend;
  return device.is_cuda() && backend_available(Backend::kNccl) ? Backend::kNccl : Backend::kGloo;
}

ProcessGroup::ProcessGroup() = default;
ProcessGroup::~ProcessGroup() = default;
ProcessGroup::ProcessGroup(ProcessGroup&&) noexcept = default;
ProcessGroup& ProcessGroup::operator=(ProcessGroup&&) noexcept = default;

ProcessGroup ProcessGroup::join(const RankEnvironment& env, Backend backend,
                                const torch::Device& device, std::chrono::milliseconds timeout) {
  ProcessGroup result;
  if (!env.distributed()) return result;
  // A peer that dies mid-exchange closes its sockets: a write to one must fail with EPIPE, an
  // error this rank reports naming itself, not end the process silently by SIGPIPE (exit 141).
  std::signal(SIGPIPE, SIG_IGN);
  backend = resolve_backend(backend, device);
  const std::string name = "rank " + std::to_string(env.rank) + " of " +
                           std::to_string(env.world_size) + " (" + backend_name(backend) + ")";
  if (!backend_available(backend)) {
    throw std::runtime_error(name + ": this build of Atento has no " + backend_name(backend) +
                             " backend (set distributed.backend)");
  }
  if (backend == Backend::kNccl && !device.is_cuda()) {
    throw std::runtime_error(name + ": the nccl backend needs train.device cuda");
  }
  auto impl = std::make_unique<Impl>();
  impl->timeout = timeout;
  impl->name = name;
  const std::string where = env.master_addr + ":" + std::to_string(env.master_port);
  try {
    impl->store = rendezvous(env, timeout);
#ifdef ATENTO_WITH_NCCL
    if (backend == Backend::kNccl) impl->group = nccl_group(impl->store, env, timeout);
#endif
#ifdef ATENTO_WITH_GLOO
    if (backend == Backend::kGloo) impl->group = gloo_group(impl->store, env, timeout);
#endif
  } catch (const c10::Error& e) {
    cannot_join(name, where, e.what_without_backtrace());
  } catch (const std::exception& e) {  // c10d's socket errors
    cannot_join(name, where, e.what());
  }
  result.impl_ = std::move(impl);
  result.rank_ = env.rank;
  result.size_ = env.world_size;
  result.device_ = backend == Backend::kNccl ? device : torch::Device(torch::kCPU);
  return result;
}

void ProcessGroup::all_reduce_sum(std::vector<torch::Tensor>& tensors) {
  if (!impl_) return;
  impl_->guarded("all-reduce", [&] {
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    for (auto& tensor : tensors) {
      std::vector<at::Tensor> one{tensor};
      works.push_back(impl_->group->allreduce(one));
    }
    impl_->wait_all(works);
  });
}

void ProcessGroup::start_all_reduce_sum(const torch::Tensor& tensor) {
  if (!impl_) return;
  impl_->guarded("all-reduce", [&] {
    std::vector<at::Tensor> one{tensor};
    impl_->started.push_back(impl_->group->allreduce(one));
  });
}

void ProcessGroup::wait_started() {
  if (!impl_) return;
  auto works = std::move(impl_->started);
  impl_->started.clear();
  impl_->guarded("all-reduce", [&] { impl_->wait_all(works); });
}

void ProcessGroup::all_reduce_max(torch::Tensor& tensor) {
  if (!impl_) return;
  impl_->guarded("all-reduce", [&] {
    std::vector<at::Tensor> one{tensor};
    c10d::AllreduceOptions options;
    options.reduceOp = c10d::ReduceOp::MAX;
    std::vector<c10::intrusive_ptr<c10d::Work>> works{impl_->group->allreduce(one, options)};
    impl_->wait_all(works);
  });
}

void ProcessGroup::broadcast(std::vector<torch::Tensor>& tensors, int64_t root) {
  if (!impl_) return;
  impl_->guarded("broadcast", [&] {
    std::vector<c10::intrusive_ptr<c10d::Work>> works;
    c10d::BroadcastOptions options;
    options.rootRank = root;
    for (auto& tensor : tensors) {
      std::vector<at::Tensor> one{tensor};
      works.push_back(impl_->group->broadcast(one, options));
    }
    impl_->wait_all(works);
  });
}

void ProcessGroup::barrier() {
  if (!impl_) return;
  impl_->guarded("barrier", [&] {
    std::vector<c10::intrusive_ptr<c10d::Work>> works{impl_->group->barrier()};
    impl_->wait_all(works);
  });
}

}  // namespace atento
