#include "model/single_query_attention.h"

#include <ATen/ExpandUtils.h>
#include <ATen/Parallel.h>
#include <c10/util/BFloat16.h>
#include <torch/csrc/autograd/grad_mode.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>

#include "model/cpu_features.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_SINGLE_QUERY_AVX2 1
#define ATENTO_SINGLE_QUERY_AVX2_TARGET __attribute__((target("avx2,fma")))
#endif

namespace atento::model {
namespace {

/// One operand read in place: row s of pair (b, h) starts at data + b·sb + h·sh + s·ss.
template <typename T>
struct StridedRows {
  const T* data;
  int64_t sb, sh, ss;
  const T* at(int64_t b, int64_t h, int64_t s) const { return data + b * sb + h * sh + s * ss; }
};

/// The keep mask expanded to [B,H,T,S] (stride 0 along broadcast axes); null data = keep all.
struct StridedKeep {
  const bool* data;
  int64_t sb, sh, st, ss;
  bool at(int64_t b, int64_t h, int64_t t, int64_t s) const {
    return data == nullptr || data[b * sb + h * sh + t * st + s * ss];
  }
};

/// The two loops of a pair over keys and values of element type T (float or bfloat16): its
/// scores q·k_s over S keys, and its output Σ_s w_s · v_s over S values (row s at
/// `rows + s · stride`). Arithmetic in fp32.
template <typename T>
struct PairLoops {
  void (*scores)(const float* q, const T* keys, int64_t stride, int64_t count, int64_t dh,
                 float* out);
  void (*weighted_sum)(const float* w, const T* values, int64_t stride, int64_t count, int64_t dv,
                       float* out);
};

template <typename T>
void single_query_scores(const float* q, const T* keys, int64_t stride, int64_t count, int64_t dh,
                         float* out) {
  for (int64_t s = 0; s < count; ++s) {
    const T* k = keys + s * stride;
    float sum = 0.0f;
    for (int64_t i = 0; i < dh; ++i) sum += q[i] * static_cast<float>(k[i]);
    out[s] = sum;
  }
}

template <typename T>
void single_query_weighted_sum(const float* w, const T* values, int64_t stride, int64_t count,
                               int64_t dv, float* out) {
  std::fill(out, out + dv, 0.0f);
  for (int64_t s = 0; s < count; ++s) {
    if (w[s] == 0.0f) continue;
    const T* v = values + s * stride;
    for (int64_t i = 0; i < dv; ++i) out[i] += w[s] * static_cast<float>(v[i]);
  }
}

#ifdef ATENTO_SINGLE_QUERY_AVX2
ATENTO_SINGLE_QUERY_AVX2_TARGET inline __m256 single_query_load(const float* p) {
  return _mm256_loadu_ps(p);
}

// Eight bfloat16 values widened to fp32 (a bfloat16 is the upper half of an fp32).
ATENTO_SINGLE_QUERY_AVX2_TARGET inline __m256 single_query_load(const c10::BFloat16* p) {
  const __m128i bits = _mm_loadu_si128(reinterpret_cast<const __m128i*>(p));
  return _mm256_castsi256_ps(_mm256_slli_epi32(_mm256_cvtepu16_epi32(bits), 16));
}

ATENTO_SINGLE_QUERY_AVX2_TARGET float single_query_sum_avx2(__m256 x) {
  __m128 half = _mm_add_ps(_mm256_castps256_ps128(x), _mm256_extractf128_ps(x, 1));
  half = _mm_add_ps(half, _mm_movehl_ps(half, half));
  half = _mm_add_ss(half, _mm_shuffle_ps(half, half, 1));
  return _mm_cvtss_f32(half);
}

template <typename T>
ATENTO_SINGLE_QUERY_AVX2_TARGET void single_query_scores_avx2(const float* q, const T* keys,
                                                              int64_t stride, int64_t count,
                                                              int64_t dh, float* out) {
  for (int64_t s = 0; s < count; ++s) {
    const T* k = keys + s * stride;
    __m256 even = _mm256_setzero_ps(), odd = _mm256_setzero_ps();
    int64_t i = 0;
    for (; i + 16 <= dh; i += 16) {
      even = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), single_query_load(k + i), even);
      odd = _mm256_fmadd_ps(_mm256_loadu_ps(q + i + 8), single_query_load(k + i + 8), odd);
    }
    for (; i + 8 <= dh; i += 8) {
      even = _mm256_fmadd_ps(_mm256_loadu_ps(q + i), single_query_load(k + i), even);
    }
    float sum = single_query_sum_avx2(_mm256_add_ps(even, odd));
    for (; i < dh; ++i) sum += q[i] * static_cast<float>(k[i]);
    out[s] = sum;
  }
}

// 32 output columns at a time in four registers, summed over every value row, stored once.
template <typename T>
ATENTO_SINGLE_QUERY_AVX2_TARGET void single_query_weighted_sum_avx2(const float* w, const T* values,
                                                                    int64_t stride, int64_t count,
                                                                    int64_t dv, float* out) {
  int64_t i = 0;
  for (; i + 32 <= dv; i += 32) {
    __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
    for (int64_t s = 0; s < count; ++s) {
      if (w[s] == 0.0f) continue;
      const __m256 weight = _mm256_set1_ps(w[s]);
      const T* v = values + s * stride + i;
      a0 = _mm256_fmadd_ps(weight, single_query_load(v), a0);
      a1 = _mm256_fmadd_ps(weight, single_query_load(v + 8), a1);
      a2 = _mm256_fmadd_ps(weight, single_query_load(v + 16), a2);
      a3 = _mm256_fmadd_ps(weight, single_query_load(v + 24), a3);
    }
    _mm256_storeu_ps(out + i, a0);
    _mm256_storeu_ps(out + i + 8, a1);
    _mm256_storeu_ps(out + i + 16, a2);
    _mm256_storeu_ps(out + i + 24, a3);
  }
  if (i < dv) single_query_weighted_sum(w, values + i, stride, count, dv - i, out + i);
}
#endif

template <typename T>
PairLoops<T> pair_loops() {
#ifdef ATENTO_SINGLE_QUERY_AVX2
  if (cpu_has_avx2_fma()) {
    return {single_query_scores_avx2<T>, single_query_weighted_sum_avx2<T>};
  }
#endif
  return {single_query_scores<T>, single_query_weighted_sum<T>};
}

template <typename T>
struct PairOperands {
  StridedRows<float> q;  ///< the queries in fp32, query t of pair (b, h) as row t
  StridedRows<T> k, v;
  StridedKeep keep;
  int64_t keys, dh, dv;
  float scale;
};

/// One query row: query t of the (batch, head) pair (b, h).
struct QueryRow {
  int64_t b, h, t;
};

constexpr float kMasked = -std::numeric_limits<float>::infinity();  // exp → exactly 0

/// Query row r's scaled scores into `w`, kMasked for masked keys; returns the largest. Only
/// runs of kept keys are scored: the padding of a short source and the cache columns before a
/// row that joined a running batch late cost nothing.
template <typename T>
float pair_scores(const PairOperands<T>& o, const PairLoops<T>& loops, const QueryRow& r,
                  float* w) {
  for (int64_t begin = 0; begin < o.keys;) {
    int64_t end = begin;
    while (end < o.keys && o.keep.at(r.b, r.h, r.t, end)) ++end;
    if (end > begin) {
      loops.scores(o.q.at(r.b, r.h, r.t), o.k.at(r.b, r.h, begin), o.k.ss, end - begin, o.dh,
                   w + begin);
    }
    for (; end < o.keys && !o.keep.at(r.b, r.h, r.t, end); ++end) w[end] = kMasked;
    begin = end;
  }
  float top = kMasked;
  for (int64_t s = 0; s < o.keys; ++s) {
    w[s] *= o.scale;  // kMasked stays kMasked
    top = std::max(top, w[s]);
  }
  return top;
}

/// Query row r: its S weights into `w`, its Dv outputs into `out`.
template <typename T>
void attend_pair(const PairOperands<T>& o, const PairLoops<T>& loops, const QueryRow& r, float* w,
                 float* out) {
  const float top = pair_scores(o, loops, r, w);
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
  loops.weighted_sum(w, o.v.at(r.b, r.h, 0), o.v.ss, o.keys, o.dv, out);
}

template <typename T>
StridedRows<T> strided_rows(const torch::Tensor& x) {
  return {x.data_ptr<T>(), x.stride(0), x.stride(1), x.stride(2)};
}

/// Every query row of q [B,H,T,Dh] (fp32), k, v (T) into the fp32 `output` [B,H,T,Dv] and
/// `weights` [B,H,T,S].
template <typename T>
void attend_pairs(const torch::Tensor& q, const torch::Tensor& k, const torch::Tensor& v,
                  StridedKeep keep, torch::Tensor& output, torch::Tensor& weights) {
  const int64_t heads = q.size(1), queries = q.size(2), keys = k.size(2);
  PairOperands<T> o{strided_rows<float>(q),
                    strided_rows<T>(k),
                    strided_rows<T>(v),
                    keep,
                    keys,
                    q.size(3),
                    v.size(3),
                    1.0f};
  o.scale = static_cast<float>(1.0 / std::sqrt(static_cast<double>(o.dh)));
  float* out = output.data_ptr<float>();
  float* w = weights.data_ptr<float>();
  const PairLoops<T> loops = pair_loops<T>();
  const int64_t grain = std::max<int64_t>(1, 32768 / (keys * (o.dh + o.dv)));
  // Row r = (b·H + h)·T + t of the contiguous [B,H,T,·] outputs.
  at::parallel_for(0, q.size(0) * heads * queries, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) {
      const QueryRow row{r / (heads * queries), r / queries % heads, r % queries};
      attend_pair(o, loops, row, w + r * keys, out + r * o.dv);
    }
  });
}

bool rank4_cpu(const torch::Tensor& x, c10::ScalarType dtype) {
  return x.defined() && x.dim() == 4 && x.device().is_cpu() && x.scalar_type() == dtype &&
         (x.stride(3) == 1 || x.size(3) == 1);
}

}  // namespace

bool single_query_attention_applies(const torch::Tensor& q, const torch::Tensor& k,
                                    const torch::Tensor& v, const torch::Tensor& keep) {
  if (!q.defined()) return false;
  const auto dtype = q.scalar_type();
  if (dtype != torch::kFloat && dtype != torch::kBFloat16) return false;
  if (!rank4_cpu(q, dtype) || !rank4_cpu(k, dtype) || !rank4_cpu(v, dtype)) return false;
  if (torch::GradMode::is_enabled() &&
      (q.requires_grad() || k.requires_grad() || v.requires_grad())) {
    return false;
  }
  const int64_t b = q.size(0), h = q.size(1), t = q.size(2), s = k.size(2);
  const bool shapes = t > 0 && s > 0 && k.size(0) == b && k.size(1) == h && v.size(0) == b &&
                      v.size(1) == h && v.size(2) == s && k.size(3) == q.size(3);
  if (!shapes) return false;
  return !keep.defined() || (keep.scalar_type() == torch::kBool && keep.device().is_cpu() &&
                             at::is_expandable_to(keep.sizes(), {b, h, t, s}));
}

AttentionResult single_query_attention(const torch::Tensor& q, const torch::Tensor& k,
                                       const torch::Tensor& v, const torch::Tensor& keep) {
  TORCH_CHECK(single_query_attention_applies(q, k, v, keep),
              "single_query_attention: unsupported operands q ", q.sizes(), ", k ", k.sizes(),
              ", v ", v.sizes());
  const int64_t batch = q.size(0), heads = q.size(1), queries = q.size(2), keys = k.size(2);
  StridedKeep kept_rows{nullptr, 0, 0, 0, 0};
  torch::Tensor kept;  // [B,H,T,S], a view with stride 0 along broadcast axes
  if (keep.defined()) {
    kept = keep.expand({batch, heads, queries, keys});
    kept_rows = {kept.data_ptr<bool>(), kept.stride(0), kept.stride(1), kept.stride(2),
                 kept.stride(3)};
  }
  const auto fp32 = q.options().dtype(torch::kFloat);
  auto output = torch::empty({batch, heads, queries, v.size(3)}, fp32);  // [B,H,T,Dv]
  auto weights = torch::empty({batch, heads, queries, keys}, fp32);      // [B,H,T,S]
  if (q.scalar_type() == torch::kBFloat16) {
    // The queries are widened once; keys and values are read as they are.
    attend_pairs<c10::BFloat16>(q.to(torch::kFloat), k, v, kept_rows, output, weights);
    return {output.to(torch::kBFloat16), weights.to(torch::kBFloat16)};
  }
  attend_pairs<float>(q, k, v, kept_rows, output, weights);
  return {output, weights};
}

}  // namespace atento::model
