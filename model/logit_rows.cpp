#include "model/logit_rows.h"

#include <torch/csrc/autograd/grad_mode.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>

#include "model/cpu_features.h"
#include "model/tensor_values.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_LOGIT_ROWS_AVX2 1
#define ATENTO_LOGIT_ROWS_AVX2_TARGET __attribute__((target("avx2,fma")))
#endif

namespace atento::model {
namespace {

constexpr float kRowMinusInfinity = -std::numeric_limits<float>::infinity();

/// Offers logit v at index i to `best` (at most m entries, best first): taken when the list has
/// room or v beats its last; placed after every entry at least as large, so equal logits stay
/// in index order.
void offer(float v, int64_t i, int64_t m, BestLogits& best) {
  auto& values = best.values;
  if (std::isnan(v) || (static_cast<int64_t>(values.size()) == m && !(v > values.back()))) return;
  size_t at = values.size();
  while (at > 0 && v > values[at - 1]) --at;
  values.insert(values.begin() + static_cast<std::ptrdiff_t>(at), v);
  best.indices.insert(best.indices.begin() + static_cast<std::ptrdiff_t>(at), i);
  if (static_cast<int64_t>(values.size()) > m) {
    values.pop_back();
    best.indices.pop_back();
  }
}

/// Offers row[begin, end) in order: until the list is full every logit, then only those above
/// its last (the threshold).
void offer_slice(const float* row, int64_t begin, int64_t end, int64_t m, BestLogits& best) {
  for (int64_t i = begin; i < end; ++i) offer(row[i], i, m, best);
}

/// Σ exp(row_i − top) over row[begin, end), for top ≥ every row_i.
float sum_exp(const float* row, int64_t begin, int64_t end, float top) {
  float sum = 0.0f;
  for (int64_t i = begin; i < end; ++i) sum += std::exp(row[i] - top);
  return sum;
}

/// The two loops of a row.
struct RowLoops {
  void (*offer_slice)(const float* row, int64_t begin, int64_t end, int64_t m, BestLogits& best);
  float (*sum_exp)(const float* row, int64_t begin, int64_t end, float top);
};

#ifdef ATENTO_LOGIT_ROWS_AVX2
// Once the list is full, eight logits at a time are compared with its last; only a group with
// one above it is offered one by one (after the first few hundred logits, rarely).
ATENTO_LOGIT_ROWS_AVX2_TARGET void offer_slice_avx2(const float* row, int64_t begin, int64_t end,
                                                    int64_t m, BestLogits& best) {
  int64_t i = begin;
  for (; i < end && static_cast<int64_t>(best.values.size()) < m; ++i) offer(row[i], i, m, best);
  __m256 threshold = _mm256_set1_ps(best.values.empty() ? kRowMinusInfinity : best.values.back());
  for (; i + 8 <= end; i += 8) {
    const int above =
        _mm256_movemask_ps(_mm256_cmp_ps(_mm256_loadu_ps(row + i), threshold, _CMP_GT_OQ));
    if (above == 0) continue;
    for (int lane = 0; lane < 8; ++lane) {
      if (above & (1 << lane)) offer(row[i + lane], i + lane, m, best);
    }
    threshold = _mm256_set1_ps(best.values.back());
  }
  offer_slice(row, i, end, m, best);
}

// e^x for x ≤ 0, eight lanes: x = n·ln 2 + r with n = round(x / ln 2), e^r by Cephes' degree-5
// polynomial (within about 2 ulp in float), times 2^n built in the exponent bits. Below −87 the
// result is e^−87 (about 1.6e−38), which no sum of at most 2^24 terms of which one is 1 can see.
ATENTO_LOGIT_ROWS_AVX2_TARGET inline __m256 exp_nonpositive_avx2(__m256 x) {
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

ATENTO_LOGIT_ROWS_AVX2_TARGET float sum_exp_avx2(const float* row, int64_t begin, int64_t end,
                                                 float top) {
  const __m256 shift = _mm256_set1_ps(top);
  __m256 even = _mm256_setzero_ps(), odd = _mm256_setzero_ps();
  int64_t i = begin;
  for (; i + 16 <= end; i += 16) {
    even =
        _mm256_add_ps(even, exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(row + i), shift)));
    odd = _mm256_add_ps(odd,
                        exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(row + i + 8), shift)));
  }
  for (; i + 8 <= end; i += 8) {
    even =
        _mm256_add_ps(even, exp_nonpositive_avx2(_mm256_sub_ps(_mm256_loadu_ps(row + i), shift)));
  }
  alignas(32) float lanes[8];
  _mm256_store_ps(lanes, _mm256_add_ps(even, odd));
  float sum = 0.0f;
  for (float lane : lanes) sum += lane;
  return sum + sum_exp(row, i, end, top);
}
#endif

const RowLoops& row_loops() {
  static const RowLoops loops = [] {
#ifdef ATENTO_LOGIT_ROWS_AVX2
    if (cpu_has_avx2_fma()) {
      return RowLoops{offer_slice_avx2, sum_exp_avx2};
    }
#endif
    return RowLoops{offer_slice, sum_exp};
  }();
  return loops;
}

}  // namespace

bool cpu_logits_path(const torch::Tensor& logits) {
  return logits.dim() == 2 && logits.device().is_cpu() && logits.size(1) > 0 &&
         (logits.scalar_type() == torch::kFloat || logits.scalar_type() == torch::kBFloat16) &&
         !(torch::GradMode::is_enabled() && logits.requires_grad());
}

std::vector<int64_t> sorted_forbidden(const torch::Tensor& forbidden, int64_t vocab) {
  std::vector<int64_t> sorted = long_values(forbidden);
  TORCH_CHECK(
      std::all_of(sorted.begin(), sorted.end(), [&](int64_t id) { return id >= 0 && id < vocab; }),
      "forbidden token ids must lie in [0, ", vocab, ")");
  std::sort(sorted.begin(), sorted.end());
  sorted.erase(std::unique(sorted.begin(), sorted.end()), sorted.end());
  TORCH_CHECK(static_cast<int64_t>(sorted.size()) < vocab,
              "every token of the vocabulary is forbidden");
  return sorted;
}

void best_logits(const float* row, int64_t vocab, const std::vector<int64_t>& forbidden, int64_t m,
                 BestLogits& best) {
  best.values.clear();
  best.indices.clear();
  best.values.reserve(static_cast<size_t>(m) + 1);
  best.indices.reserve(static_cast<size_t>(m) + 1);
  const RowLoops& loops = row_loops();
  int64_t begin = 0;
  for (int64_t id : forbidden) {  // the allowed stretches between forbidden ids
    loops.offer_slice(row, begin, id, m, best);
    begin = id + 1;
  }
  loops.offer_slice(row, begin, vocab, m, best);
}

Normaliser row_normaliser(const float* row, int64_t vocab, float top) {
  if (top == kRowMinusInfinity) {  // as log_softmax of a row of −inf
    return {top, std::numeric_limits<float>::quiet_NaN()};
  }
  return {top, std::log(row_loops().sum_exp(row, 0, vocab, top))};
}

float row_top(const float* row, float best, const std::vector<int64_t>& forbidden) {
  for (int64_t id : forbidden) best = std::max(best, row[id]);
  return best;
}

}  // namespace atento::model
