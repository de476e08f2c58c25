#include "model/single_query_attention.h"

#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_SINGLE_QUERY_AVX2 1
#define ATENTO_SINGLE_QUERY_AVX2_TARGET __attribute__((target("avx2,fma")))
#endif

namespace atento::model {
namespace {

/// One fp32 operand read in place: row s of pair (b, h) starts at data + b·sb + h·sh + s·ss.
struct StridedRows {
  const float* data;
  int64_t sb, sh, ss;
  const float* at(int64_t b, int64_t h, int64_t s) const { return data + b * sb + h * sh + s * ss; }
};

/// The keep mask expanded to [B,H,1,S] (stride 0 along broadcast axes); null data = keep all.
struct StridedKeep {
  const bool* data;
  int64_t sb, sh, ss;
  bool at(int64_t b, int64_t h, int64_t s) const {
    return data == nullptr || data[b * sb + h * sh + s * ss];
  }
};

/// The two loops of a pair: its scores q·k_s over S keys, and its output Σ_s w_s · v_s over S
/// values (row s of keys or values at `rows + s · stride`).
struct PairLoops {
  void (*scores)(const float* q, const float* keys, int64_t stride, int64_t count, int64_t dh,
                 float* out);
  void (*weighted_sum)(const float* w, const float* values, int64_t stride, int64_t count,
                       int64_t dv, float* out);
};

void single_query_scores(const float* q, const float* keys, int64_t stride, int64_t count,
                         int64_t dh, float* out) {
  for (int64_t s = 0; s < count; ++s) {
    const float* k = keys + s * stride;
    float sum = 0.0f;
    for (int64_t i = 0; i < dh; ++i) sum += q[i] * k[i];
    out[s] = sum;
  }
}

void single_query_weighted_sum(const float* w, const float* values, int64_t stride, int64_t count,
                               int64_t dv, float* out) {
  std::fill(out, out + dv, 0.0f);
  for (int64_t s = 0; s < count; ++s) {
    if (w[s] == 0.0f) continue;
    const float* v = values + s * stride;
    for (int64_t i = 0; i < dv; ++i) out[i] += w[s] * v[i];
  }
}

#ifdef ATENTO_SINGLE_QUERY_AVX2
ATENTO_SINGLE_QUERY_AVX2_TARGET float single_query_sum_avx2(__m256 x) {
  __m128 half = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
  half = _mm_add_ps(half, _mm_movehl_ps(half, half));
  half = _mm_add_ss(half, _mm_shuffle_ps(half, half, 1));
  return _mm_cvtss_f32(half);
}

ATENTO_SINGLE_QUERY_AVX2_TARGET void single_query_scores_avx2(const float* q, const float* keys,
                                                              int64_t stride, int64_t count,
                                                              int64_t dh, float* out) {
  for (int64_t s = 0; s < count; ++s) {
    const float* k = keys + s * stride;
    __m256 even = _mm256_setzero_ps(), odd = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= dh; i += 16) {
      even = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), _mm256_loadu_ps(k + i), even);
      odd = _mm256_fmadd_ps(_mm256_loadu_ps(q + i + 8), _mm256_loadu_ps(k + i + 8), odd);
    }
    for (; i + 8 <= dh; i += 8) {
      even = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), _mm256_loadu_ps(k + i), even);
    }
    float sum = single_query_sum_avx2(_mm256_add_ps(even, odd));
    for (; i < dh; ++i) sum += q[i] * k[i];
    out[s] = sum;
  }
}

// 32 output columns at a time in four registers, summed over every value row, stored once.
ATENTO_SINGLE_QUERY_AVX2_TARGET void single_query_weighted_sum_avx2(const float* w,
                                                                    const float* values,
                                                                    int64_t stride, int64_t count,
                                                                    int64_t dv, float* out) {
  int64_t i = 0;
  for (; i + 32 <= dv; i += 32) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t s = 0; s < count; ++s) {
      if (w[s] == 0.0f) continue;
      const __m256 weight = _mm256_set1_ps(w[s]);
      const float* v = values + s * stride + i;
      a0 = _mm256_fmadd_ps(weight, _mm256_loadu_ps(v), a0);
      a1 = _mm256_fmadd_ps(weight, _mm256_loadu_ps(v + 8), a1);
      a2 = _mm256_fmadd_ps(weight, _mm256_loadu_ps(v + 16), a2);
      a3 = _mm256_fmadd_ps(weight, _mm256_loadu_ps(v + 24), a3);
    }
    _mm256_storeu_ps(out + i, a0);
    _mm256_storeu_ps(out + i + 8, a1);
    _mm256_storeu_ps(out + i + 16, a2);
    _mm256_storeu_ps(out + i + 24, a3);
  }
  if (i < dv) single_query_weighted_sum(w, values + i, stride, count, dv - i, out + i);
}
#endif

PairLoops pair_loops() {
#ifdef ATENTO_SINGLE_QUERY_AVX2
  __builtin_cpu_init();
  if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma")) {
    return {single_query_scores_avx2, single_query_weighted_sum_avx2};
  }
#endif
  return {single_query_scores, single_query_weighted_sum};
}

struct PairOperands {
  StridedRows q, k, v;
  StridedKeep keep;
  int64_t keys, dh, dv;
  float scale;
};

constexpr float kMasked = -std::numeric_limits<float>::infinity();  // exp → exactly 0

/// Pair (b, h)'s scaled scores into `w`, kMasked for masked keys; returns the largest. Only runs
/// of kept keys are scored: the padding of a short source and the cache columns before a row
/// that joined a running batch late cost nothing.
float pair_scores(const PairOperands& o, const PairLoops& loops, int64_t b, int64_t h, float* w) {
  for (int64_t begin = 0; begin < o.keys;) {
    int64_t end = begin;
    while (end < o.keys && o.keep.at(b, h, end)) ++end;
    if (end > begin) {
      loops.scores(o.q.at(b, h, 0), o.k.at(b, h, begin), o.k.ss, end - begin, o.dh, w + begin);
    }
    for (; end < o.keys && !o.keep.at(b, h, end); ++end) w[end] = kMasked;
    begin = end;
  }
  float top = kMasked;
  for (int64_t s = 0; s < o.keys; ++s) {
    if (w[s] != kMasked) w[s] *= o.scale;
    top = std::max(top, w[s]);
  }
  return top;
}

/// Pair (b, h): its S weights into `w`, its Dv outputs into `out`.
void attend_pair(const PairOperands& o, const PairLoops& loops, int64_t b, int64_t h, float* w,
                 float* out) {
  const float top = pair_scores(o, loops, b, h, w);
  if (top == kMasked) {  // no kept key: zero weights, zero output
    std::fill(w, w + o.keys, 0.0f);
    std::fill(out, out + o.dv, 0.0f);
    return;
  }
  float total = 0.0f;
  for (int64_t s = 0; s < o.keys; ++s) {
    w[s] = std::exp(w[s] - top);
    total += w[s];
  }
  const float inverse = 1.0f / total;
  for (int64_t s = 0; s < o.keys; ++s) w[s] *= inverse;
  loops.weighted_sum(w, o.v.at(b, h, 0), o.v.ss, o.keys, o.dv, out);
}

StridedRows strided_rows(const torch::Tensor& x) {
  return {x.data_ptr<float>(), x.stride(0), x.stride(1), x.stride(2)};
}

bool fp32_cpu_rank4(const torch::Tensor& x) {
  return x.defined() && x.dim() == 4 && x.device().is_cpu() && x.scalar_type() == torch::kFloat &&
         (x.stride(3) == 1 || x.size(3) == 1);
}

}  // namespace

bool single_query_attention_applies(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep) {
  if (!fp32_cpu_rank4(q) || !fp32_cpu_rank4(k) || !fp32_cpu_rank4(v)) return false;
  if (torch::GradMode::is_enabled() &&
      (q.requires_grad() || k.requires_grad() || v.requires_grad())) {
    return false;
  }
  const int64_t b = q.size(0), h = q.size(1), s = k.size(2);
  const bool shapes = q.size(2) == 1 && s > 0 && k.size(0) == b && k.size(1) == h &&
                      v.size(0) == b && v.size(1) == h && v.size(2) == s && k.size(3) == q.size(3);
  if (!shapes) return false;
  return !keep.defined() || (keep.scalar_type() == torch::kBool && keep.device().is_cpu() &&
                             at::is_expandable_to(keep.sizes(), {b, h, 1, s}));
}

AttentionResult single_query_attention(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const torch::Tensor& keep) {
  TORCH_CHECK(single_query_attention_applies(q, k, v, keep),
              "single_query_attention: unsupported operands q ", q.sizes(), ", k ", k.sizes(),
              ", v ", v.sizes());
  const int64_t pairs_b = q.size(0), heads = q.size(1), keys = k.size(2);
  PairOperands o{strided_rows(q),
                 strided_rows(k),
                 strided_rows(v),
                 {nullptr, 0, 0, 0},
                 keys,
                 q.size(3),
                 v.size(3),
                 0.0f};
  o.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(o.dh)));
  torch::Tensor kept;  // [B,H,1,S], a view with stride 0 along broadcast axes
  if (keep.defined()) {
    kept = keep.expand({pairs_b, heads, 1, keys});
    o.keep = {kept.data_ptr<bool>(), kept.stride(0), kept.stride(1), kept.stride(3)};
  }
  auto output = torch::empty({pairs_b, heads, 1, o.dv}, q.options());   // [B,H,1,Dv]
  auto weights = torch::empty({pairs_b, heads, 1, keys}, q.options());  // [B,H,1,S]
  float* out = output.data_ptr<float>();
  float* w = weights.data_ptr<float>();
  const PairLoops loops = pair_loops();
  const int64_t grain = std::max<int64_t>(1, 32768 / (keys * (o.dh + o.dv)));
  at::parallel_for(0, pairs_b * heads, grain, [&](int64_t begin, int64_t end) {
    for (int64_t pair = begin; pair < end; ++pair) {
      attend_pair(o, loops, pair / heads, pair % heads, w + pair * keys, out + pair * o.dv);
    }
  });
  return {output, weights};
}

}  // namespace atento::model
