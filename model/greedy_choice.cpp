#include "model/greedy_choice.h"

#include <ATen/Parallel.h>
#include <torch/csrc/autograd/grad_mode.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <vector>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_GREEDY_CHOICE_AVX2 1
#define ATENTO_GREEDY_CHOICE_AVX2_TARGET __attribute__((target("avx2,fma")))
#endif

namespace atento::model {
namespace {

constexpr float kMinusInfinity = -std::numeric_limits<float>::infinity();

/// The largest value of a row's slice and its first index (−1 while every value is −inf).
struct Largest {
  float value = kMinusInfinity;
  int64_t index = -1;
};

/// Folds x[begin, end) into `best`, keeping the first index of the largest value.
void fold_largest(const float* x, int64_t begin, int64_t end, Largest& best) {
  for (int64_t i = begin; i < end; ++i) {
    if (x[i] > best.value) best = {x[i], i};
  }
}

/// Σ exp(x_i − top) over x[begin, end), for top ≥ every x_i.
float sum_exp(const float* x, int64_t begin, int64_t end, float top) {
  float sum = 0.0f;
  for (int64_t i = begin; i < end; ++i) sum += std::exp(x[i] - top);
  return sum;
}

/// The two loops over a row: the largest value of a slice, and the sum of exponentials.
struct RowLoops {
  void (*largest)(const float* x, int64_t begin, int64_t end, Largest& best);
  float (*sum_exp)(const float* x, int64_t begin, int64_t end, float top);
};

#ifdef ATENTO_GREEDY_CHOICE_AVX2
// Eight lanes of each value's running largest and its index; a lane takes a later value only
// when it is strictly larger, so each lane keeps its first largest, and the lanes are merged
// by value, then by the smaller index.
ATENTO_GREEDY_CHOICE_AVX2_TARGET void fold_largest_avx2(const float* x, int64_t begin, int64_t end,
                                                        Largest& best) {
  int64_t i = begin;
  if (end - begin >= 8) {
    __m256 values = _mm256_set1_ps(kMinusInfinity);
    __m256i indices = _mm256_set1_epi32(-1);
    __m256i at = _mm256_add_epi32(_mm256_set1_epi32(static_cast<int32_t>(begin)),
                                  _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7));
    const __m256i step = _mm256_set1_epi32(8);
    for (; i + 8 <= end; i += 8) {
      const __m256 v = _mm256_loadu_ps(x + i);
      const __m256 larger = _mm256_cmp_ps(v, values, _CMP_GT_OQ);
      values = _mm256_blendv_ps(values, v, larger);
      indices = _mm256_castps_si256(
          _mm256_blendv_ps(_mm256_castsi256_ps(indices), _mm256_castsi256_ps(at), larger));
      at = _mm256_add_epi32(at, step);
    }
    alignas(32) float lane_value[8];
    alignas(32) int32_t lane_index[8];
    _mm256_store_ps(lane_value, values);
    _mm256_store_si256(reinterpret_cast<__m256i*>(lane_index), indices);
    for (int lane = 0; lane < 8; ++lane) {
      if (lane_index[lane] < 0) continue;
      const bool earlier = lane_value[lane] == best.value && lane_index[lane] < best.index;
      if (lane_value[lane] > best.value || earlier) best = {lane_value[lane], lane_index[lane]};
    }
  }
  fold_largest(x, i, end, best);
}

// e^x for x ≤ 0, eight lanes: x = n·ln 2 + r with n = round(x / ln 2), e^r by Cephes' degree-5
// polynomial (within about 2 ulp in float), times 2^n built in the exponent bits. Below −87 the
// result is e^−87 (about 1.6e−38), which no sum of at most 2^24 terms of which one is 1 can see.
ATENTO_GREEDY_CHOICE_AVX2_TARGET inline __m256 exp_nonpositive_avx2(__m256 x) {
  x = _mm256_max_ps(x, _mm256_set1_ps(-87.0f));
  const __m256 n = _mm256_round_ps(_mm256_mul_ps(x, _mm256_set1_ps(1.44269504088896341f)),
                                   _MM_FROUND_TO_NEAREST_INT | _MM_FROUND_NO_EXC);
  __m256 r = _mm256_fnmadd_ps(n, _mm256_set1_ps(0.693359375f), x);  // ln 2 in two parts
  r = _mm256_fnmadd_ps(n, _mm256_set1_ps(-2.12194440e-4f), r);
  __m256 p = _mm256_set1_ps(1.9875691500e-4f);
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.3981999507e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(8.3334519073e-3f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(4.1665795894e-2f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(1.6666665459e-1f));
  p = _mm256_fmadd_ps(p, r, _mm256_set1_ps(5.0000001201e-1f));
  p = _mm256_fmadd_ps(p, _mm256_mul_ps(r, r), _mm256_add_ps(r, _mm256_set1_ps(1.0f)));
  const __m256i two_to_n =
      _mm256_slli_epi32(_mm256_add_epi32(_mm256_cvtps_epi32(n), _mm256_set1_epi32(127)), 23);
  return _mm256_mul_ps(p, _mm256_castsi256_ps(two_to_n));
}

ATENTO_GREEDY_CHOICE_AVX2_TARGET float sum_exp_avx2(const float* x, int64_t begin, int64_t end,
                                                    float top) {
  const __m256 shift = _mm256_set1_ps(top);
  __m256 even = _mm256_setzero_ps(), odd = _mm256_setzero_ps();
  int64_t i = begin;
  for (; i + 16 <= end; i += 16) {
    even = _mm256_add_ps(even, exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), shift)));
    odd =
        _mm256_add_ps(odd, exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i + 8), shift)));
  }
  for (; i + 8 <= end; i += 8) {
    even = _mm256_add_ps(even, exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(x + i), shift)));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(even, odd));
  float sum = 0.0f;
  for (float lane : lanes) sum += lane;
  return sum + sum_exp(x, i, end, top);
}
#endif

RowLoops row_loops() {
#ifdef ATENTO_GREEDY_CHOICE_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {fold_largest_avx2, sum_exp_avx2};
  }
#endif
  return {fold_largest, sum_exp};
}

/// One row x[0, V): its best allowed token (between the sorted forbidden ids) and that token's
/// log-probability.
void choose(const float* x, int64_t vocab, const std::vector<int64_t>& forbidden,
            const RowLoops& loops, float& log_prob, int64_t& token) {
  Largest best;
  int64_t begin = 0;
  for (int64_t id : forbidden) {
    loops.largest(x, begin, id, best);
    begin = id + 1;
  }
  loops.largest(x, begin, vocab, best);
  if (best.index < 0) {  // every allowed logit −inf: the first allowed token
    best.index = 0;
    for (int64_t id : forbidden) best.index += id == best.index ? 1 : 0;
  }
  float top = best.value;  // the largest of all V, forbidden included, for the normaliser
  for (int64_t id : forbidden) top = std::max(top, x[id]);
  if (top == kMinusInfinity) {
    log_prob = std::numeric_limits<float>::quiet_NaN();  // as log_softmax of an all −inf row
    token = best.index;
    return;
  }
  log_prob = (x[best.index] - top) - std::log(loops.sum_exp(x, 0, vocab, top));
  token = best.index;
}

bool fast_path(const torch::Tensor& logits) {
  return logits.dim() == 2 && logits.device().is_cpu() && logits.size(1) > 0 &&
         (logits.scalar_type() == torch::kFloat || logits.scalar_type() == torch::kBFloat16) &&
         !(torch::GradMode::is_enabled() && logits.requires_grad());
}

/// The ids of `forbidden` inside [0, vocab), sorted, each once.
std::vector<int64_t> sorted_ids(const torch::Tensor& forbidden, int64_t vocab) {
  const auto ids = forbidden.to(torch::kCPU, torch::kLong).contiguous();
  std::vector<int64_t> sorted(ids.data_ptr<int64_t>(), ids.data_ptr<int64_t>() + ids.numel());
  TORCH_CHECK(
      std::all_of(sorted.begin(), sorted.end(), [&](int64_t id) { return id >= 0 && id < vocab; }),
      "greedy_choice: forbidden ids must lie in [0, ", vocab, ")");
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  TORCH_CHECK(static_cast<int64_t>(sorted.size()) < vocab,
              "greedy_choice: every token of the vocabulary is forbidden");
  return sorted;
}

}  // namespace

GreedyChoice greedy_choice(const torch::Tensor& logits, const torch::Tensor& forbidden) {
  if (!fast_path(logits)) {
    auto logp = torch::log_softmax(logits, -1, torch::kFloat);  // [B,V]
    auto [best, token] = logp.index_fill_(1, forbidden, kMinusInfinity).max(-1);
    return {best, token};
  }
  const auto x = logits.to(torch::kFloat).contiguous();  // [B,V]
  const int64_t rows = x.size(0), vocab = x.size(1);
  const std::vector<int64_t> ids = sorted_ids(forbidden, vocab);
  GreedyChoice choice{torch::empty({rows}, torch::kFloat), torch::empty({rows}, torch::kLong)};
  const float* data = x.data_ptr<float>();
  float* log_prob = choice.log_prob.data_ptr<float>();
  int64_t* token = choice.token.data_ptr<int64_t>();
  const RowLoops loops = row_loops();
  at::parallel_for(0, rows, std::max<int64_t>(1, 32768 / vocab), [&](int64_t begin, int64_t end) {
    for (int64_t b = begin; b < end; ++b) {
      choose(data + b * vocab, vocab, ids, loops, log_prob[b], token[b]);
    }
  });
  return choice;
}

}  // namespace atento::model
