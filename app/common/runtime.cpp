#include "app/common/runtime.h"

#include <ATen/Parallel.h>

#include <algorithm>
#include <cstdlib>
#include <thread>

namespace atento {

int64_t resolve_threads(int64_t requested) {
  if (requested > 0) return requested;
  const char* env = std::getenv("OMP_NUM_THREADS");
  const int64_t n = env ? std::atoll(env) : 0;
  return n > 0 ? n : std::max<int64_t>(1, std::thread::hardware_concurrency());
}

int64_t set_threads(int64_t requested) {
  at::set_num_threads(static_cast<int>(resolve_threads(requested)));
  return at::get_num_threads();
}

}  // namespace atento
