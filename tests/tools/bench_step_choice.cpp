// Benchmark tool: a decoding step's choice on one thread for an 8,000-token vocabulary
// (configs/base.json): greedy (model/greedy_choice.h) against the tensor form it replaced
// (log_softmax over [B,V], forbidden ids to −inf, max), and a beam step's candidates
// (model/beam_candidates.h: 4 beams a sentence, 8 candidates) against theirs (log_softmax, −inf,
// plus the beams' scores, top-k). Prints microseconds a call and the median of the per-round
// ratios (rounds alternate the two forms); asserts nothing.
// Usage: atento_bench_step_choice [ROUNDS]
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>

#include "model/beam_candidates.h"
#include "model/greedy_choice.h"
#include "tests/tools/paired_timing.h"

namespace {

constexpr int64_t kVocab = 8000;

void print(const char* what, int64_t rows, const atento::tools::PairedTiming& t) {
  std::printf("%-6s R=%3lld  tensor form %7.1f us  row loops %7.1f us  median ratio %.2fx\n", what,
              static_cast<long long>(rows), t.first_us, t.second_us, t.ratio);
}

void bench_greedy(int64_t rows, int rounds) {
  const auto logits = torch::randn({rows, kVocab}) * 4.0;  // [R,V]
  const auto forbidden = torch::tensor({0, 2}, torch::kLong);
  print("greedy", rows,
        atento::tools::paired_timing(
            rounds, 200,
            [&] {
              auto logp = torch::log_softmax(logits, -1, torch::kFloat);  // [R,V]
              logp.index_fill_(1, forbidden, -INFINITY).max(-1);
            },
            [&] { atento::model::greedy_choice(logits, forbidden); }));
}

void bench_beam(int64_t sentences, int rounds) {
  const int64_t width = 4, rows = sentences * width;
  const auto logits = torch::randn({rows, kVocab}) * 4.0;  // [R,V]
  const auto scores = -torch::rand({rows}) * 10.0;         // [R]
  const auto forbidden = torch::tensor({0, 2}, torch::kLong);
  print(
      "beam 4", rows,
      atento::tools::paired_timing(
          rounds, 200,
          [&] {
            auto logp =
                torch::log_softmax(logits, -1, torch::kFloat).index_fill_(1, forbidden, -INFINITY);
            // [R,1] + [R,V] → [N, W·V]
            (scores.unsqueeze(1) + logp).view({sentences, width * kVocab}).topk(2 * width, 1);
          },
          [&] { atento::model::beam_candidates(logits, scores, forbidden, width, 2 * width); }));
}

}  // namespace

int main(int argc, char** argv) {
  const int rounds = argc > 1 ? std::max(1, std::atoi(argv[1])) : 41;
  at::set_num_threads(1);
  torch::NoGradGuard no_grad;
  torch::manual_seed(7);
  std::printf("a decoding step's choice, V=%lld, fp32 logits, 1 thread, %d rounds of 200 calls\n",
              static_cast<long long>(kVocab), rounds);
  for (int64_t rows : {1, 8, 32, 64}) bench_greedy(rows, rounds);
  for (int64_t sentences : {1, 4, 16}) bench_beam(sentences, rounds);
  return 0;
}
