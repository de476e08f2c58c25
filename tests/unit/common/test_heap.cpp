// release_free_memory: pages freed inside the heap (below a block still in use, so free() alone
// cannot shrink it) go back to the system. The unit tests run on glibc's malloc; the jemalloc
// purge is exercised by the programs (atento-translate's windows, loading a model).
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <cstring>
#include <fstream>
#include <vector>

#include "app/common/heap.h"

namespace atento {
namespace {

// This process's resident memory in bytes (/proc/self/statm's second field, in pages).
size_t resident_bytes() {
  std::ifstream statm("/proc/self/statm");
  size_t size = 0, resident = 0;
  statm >> size >> resident;
  return resident * static_cast<size_t>(sysconf(_SC_PAGESIZE));
}

TEST(Heap, ReleaseFreeMemoryGivesFreedPagesBack) {
  constexpr size_t kBlocks = 40000, kBlock = 2048;  // 80 MB of small blocks, inside the heap
  std::vector<void*> blocks;
  for (size_t i = 0; i < kBlocks; ++i) {
    blocks.push_back(std::malloc(kBlock));
    std::memset(blocks.back(), 1, kBlock);
  }
  // The last block, cut from the heap's top after the others, stays: free() alone cannot
  // shrink the heap below it.
  for (size_t i = 0; i + 1 < kBlocks; ++i) std::free(blocks[i]);
  const size_t before = resident_bytes();
  release_free_memory();
  const size_t after = resident_bytes();
  EXPECT_LT(after + 40 * 1024 * 1024, before) << "before " << before << ", after " << after;
  std::free(blocks.back());
}

}  // namespace
}  // namespace atento
