#pragma once
// What every program shares at run time, without the command-line parser: exit codes and the
// thread count. Exit codes: 0 success, 2 usage/config error, 1 any other error; messages on
// stderr start with "error:".

#include <cstdint>

namespace atento {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

/// The thread count a setting asks for: itself when positive; 0 = $OMP_NUM_THREADS when set,
/// else every core.
int64_t resolve_threads(int64_t requested);

/// Sets LibTorch's intra-op threads to resolve_threads(requested) (LibTorch otherwise starts
/// with OpenMP's default, which is 1 thread on some machines). With OpenMP the count belongs
/// to the calling thread. Returns the number in use.
int64_t set_threads(int64_t requested);

}  // namespace atento
