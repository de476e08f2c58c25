#pragma once
// One tokenized training pair, as batching and subword sampling exchange it.

#include <cstdint>
#include <vector>

namespace atento::data {

/// One tokenized pair: source ids and [bos] target ids [eos].
struct Example {
  std::vector<int64_t> src;
  std::vector<int64_t> tgt;
};

}  // namespace atento::data
