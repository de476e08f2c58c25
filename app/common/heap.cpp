#include "app/common/heap.h"

#include <dlfcn.h>
#include <malloc.h>

#include <cstddef>

namespace atento {
namespace {

using Mallctl = int (*)(const char*, void*, size_t*, void*, size_t);

// jemalloc's mallctl where the program runs on jemalloc, else nullptr (looked up once).
Mallctl jemalloc_mallctl() {
  static const auto found = reinterpret_cast<Mallctl>(dlsym(RTLD_DEFAULT, "mallctl"));
  return found;
}

}  // namespace

void release_free_memory() {
  malloc_trim(0);
  if (const auto mallctl = jemalloc_mallctl()) {
    // "arena.<MALLCTL_ARENAS_ALL>.purge" (jemalloc.h: MALLCTL_ARENAS_ALL is 4096): every arena's
    // unused dirty pages back to the system.
    mallctl("arena.4096.purge", nullptr, nullptr, nullptr, 0);
  }
}

}  // namespace atento
