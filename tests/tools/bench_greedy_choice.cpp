// Benchmark tool: a greedy decoding step's choice, the two-pass CPU loop (model/greedy_choice.h)
// against the tensor form it replaced (log_softmax over [B,V], forbidden ids to −inf, max), on
// one thread, for an 8,000-token vocabulary (configs/base.json) and a few row counts. Prints
// microseconds a call and the median of the per-round ratios (rounds alternate the two);
// asserts nothing. Usage: atento_bench_greedy_choice [ROUNDS]
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "model/greedy_choice.h"
#include "tests/tools/paired_timing.h"

namespace {

void bench(int64_t rows, int64_t vocab, int rounds) {
  const auto logits = torch::randn({rows, vocab}) * 4.0;  // [B,V]
  const auto forbidden = torch::tensor({0, 2}, torch::kLong);
  const auto t = atento::tools::paired_timing(
      rounds, 200,
      [&] {
        auto logp = torch::log_softmax(logits, -1, torch::kFloat);  // [B,V]
        logp.index_fill_(1, forbidden, -INFINITY).max(-1);
      },
      [&] { atento::model::greedy_choice(logits, forbidden); });
  std::printf("B=%3lld V=%lld  tensor form %7.1f us  two passes %7.1f us  median ratio %.2fx\n",
              static_cast<long long>(rows), static_cast<long long>(vocab), t.first_us, t.second_us,
              t.ratio);
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 41;
  at::set_num_threads(1);
  torch::NoGradGuard no_grad;
  torch::manual_seed(7);
  std::printf("greedy choice of one decoding step, fp32 logits, 1 thread, %d rounds of 200 calls\n",
              rounds);
  for (int64_t rows : {1, 8, 32, 64}) bench(rows, 8000, rounds);
  return 0;
}
