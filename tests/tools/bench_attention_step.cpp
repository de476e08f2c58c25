// Benchmark tool: the attention of a cached decoding step, the one-pass CPU loop
// (model/single_query_attention.h) against the ATen form it replaced there (tensor_attention),
// on one thread, at the shapes of configs/base.json (4 heads of 64) for a few batch sizes and key
// counts, half the rows padded at random. Prints microseconds a call and the median of the
// per-round ratios (rounds alternate the two, so a shared machine's drift cancels); asserts
// nothing. Usage: atento_bench_attention_step [ROUNDS [fp32|bf16]]
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <cstring>

#include "model/attention.h"
#include "model/single_query_attention.h"
#include "tests/tools/paired_timing.h"

namespace {

void bench(int64_t batch, int64_t keys, int rounds, c10::ScalarType dtype) {
  using namespace atento::model;
  const int64_t heads = 4, dh = 64;
  const auto options = torch::TensorOptions().dtype(dtype);
  auto q = torch::randn({batch, heads, 1, dh}, options);  // [B,H,1,Dh]
  // [B,S,H,Dh] → [B,H,S,Dh], as split_heads leaves keys and values
  auto k = torch::randn({batch, keys, heads, dh}, options).transpose(1, 2);
  auto v = torch::randn({batch, keys, heads, dh}, options).transpose(1, 2);
  auto lengths = torch::randint(keys / 2, keys + 1, {batch});
  auto keep = torch::arange(keys).unsqueeze(0).lt(lengths.unsqueeze(1));  // [B,S]
  keep = keep.view({batch, 1, 1, keys});                                  // [B,1,1,S]
  const auto t = atento::tools::paired_timing(
      rounds, 200, [&] { tensor_attention(q, k, v, keep); },
      [&] { single_query_attention(q, k, v, keep); });
  std::printf("B=%3lld S=%2lld  ATen form %7.1f us  one pass %7.1f us  median ratio %.2fx\n",
              static_cast<long long>(batch), static_cast<long long>(keys), t.first_us, t.second_us,
              t.ratio);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 41;
  const bool bf16 = argc > 2 && std::strcmp(argv[2], "bf16") == 0;
  at::set_num_threads(1);
  torch::NoGradGuard no_grad;
  torch::manual_seed(7);
  std::printf("attention of one decoding step, %s, H=4, Dh=64, 1 thread, %d rounds of 200 calls\n",
              bf16 ? "bf16" : "fp32", rounds);
  for (int64_t batch : {8, 32, 128}) {
    for (int64_t keys : {12, 24, 48}) {
      bench(batch, keys, rounds, bf16 ? torch::kBFloat16 : torch::kFloat);
    }
  }
  return 0;
}
