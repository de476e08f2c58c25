#include "model/int8_gemm.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <cstring>

#include "model/cpu_features.h"

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_INT8_GEMM 1
#define ATENTO_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
#define ATENTO_AVX2 __attribute__((target("avx2,fma")))
#endif

namespace atento::model {
namespace {

constexpr int64_t kBlock = 16;     // output channels a block (one zmm of int32)
constexpr int kMaxTileRows = 4;    // rows a tile: 4 × 4 accumulators + 4 weights + 1 input
constexpr int kMaxTileBlocks = 4;  // blocks a tile: 64 output channels
constexpr int64_t kRowChunk = 64;  // rows whose quantised input stays in cache across a tile

int64_t round_up(int64_t value, int64_t step) { return (value + step - 1) / step * step; }

// One tile of the output: up to kMaxTileRows rows × kMaxTileBlocks blocks.
struct Tile {
  const uint8_t* q;        // first row's quantised input (X + 128 or X), ldq bytes a row
  int64_t ldq;             // D padded to 4
  const float* row_scale;  // t_n of the first row
  const int8_t* w;         // the tile's first block
  const int32_t* offset;   // −128 · Σ_k W at the tile's first channel
  const float* scale;      // s_v at the tile's first channel
  const float* bias;       // b_v at the tile's first channel, or nullptr
  float* out;              // first row's first output
  int64_t ldo;             // V
  int64_t cols;            // valid output channels in the tile (≤ 16 · blocks)
};

}  // namespace

#ifdef ATENTO_INT8_GEMM
// GCC 12 warns inside its own AVX512 headers (the "undefined" vectors of masked loads and
// reductions, which are never read uninitialised).
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wuninitialized"
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
namespace {

// The mask of the valid lanes of block b of a tile with `cols` valid channels.
ATENTO_VNNI inline __mmask16 lanes(int64_t cols, int b) {
  const int64_t left = cols - kBlock * b;
  return left >= kBlock ? __mmask16(0xFFFF) : __mmask16((1u << left) - 1u);
}

template <int R, int B>
ATENTO_VNNI void tile_kernel(const Tile& t) {
  const int64_t steps = t.ldq / 4;         // groups of 4 input positions
  const int64_t block_bytes = steps * 64;  // one block of the packed weight
  __m512i acc[R][B];
#pragma GCC unroll 4
  for (int b = 0; b < B; ++b) {
    const __m512i start = _mm512_loadu_si512(t.offset + kBlock * b);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) acc[r][b] = start;
  }
  for (int64_t k = 0; k < steps; ++k) {
    __m512i w[B];
#pragma GCC unroll 4
    for (int b = 0; b < B; ++b) w[b] = _mm512_loadu_si512(t.w + b * block_bytes + k * 64);
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      int32_t four;  // 4 input bytes of row r, broadcast to the 16 lanes
      std::memcpy(&four, t.q + r * t.ldq + 4 * k, sizeof four);
      const __m512i x = _mm512_set1_epi32(four);
#pragma GCC unroll 4
      for (int b = 0; b < B; ++b) acc[r][b] = _mm512_dpbusd_epi32(acc[r][b], x, w[b]);
    }
  }
#pragma GCC unroll 4
  for (int b = 0; b < B; ++b) {
    const __mmask16 m = lanes(t.cols, b);
    const __m512 s = _mm512_loadu_ps(t.scale + kBlock * b);  // padded: always 16 there
    const __m512 bias =
        t.bias != nullptr ? _mm512_maskz_loadu_ps(m, t.bias + kBlock * b) : _mm512_setzero_ps();
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m512 st = _mm512_mul_ps(s, _mm512_set1_ps(t.row_scale[r]));
      const __m512 y = _mm512_fmadd_ps(_mm512_cvtepi32_ps(acc[r][b]), st, bias);
      _mm512_mask_storeu_ps(t.out + r * t.ldo + kBlock * b, m, y);
    }
  }
}

using TileFn = void (*)(const Tile&);

template <int R>
constexpr TileFn kRowTiles[kMaxTileBlocks] = {&tile_kernel<R, 1>, &tile_kernel<R, 2>,
                                              &tile_kernel<R, 3>, &tile_kernel<R, 4>};

const TileFn* const kVnniTiles[kMaxTileRows] = {kRowTiles<1>, kRowTiles<2>, kRowTiles<3>,
                                                kRowTiles<4>};

// Each row of x [N,D] → X + 128 in q (N rows of ldq bytes; the padding holds 128, which meets
// zero weights) and its scale t_n = max|x_n| / 127 (0 for a zero row).
ATENTO_VNNI void quantize_rows_vnni(const float* x, int64_t n, int64_t d, uint8_t* q, int64_t ldq,
                                    float* scales) {
  for (int64_t i = 0; i < n; ++i, x += d, q += ldq) {
    __m512 high = _mm512_setzero_ps();
    for (int64_t j = 0; j < d; j += kBlock) {
      const __mmask16 m = lanes(d - j, 0);
      high = _mm512_max_ps(high, _mm512_abs_ps(_mm512_maskz_loadu_ps(m, x + j)));
    }
    const float amax = _mm512_reduce_max_ps(high);
    const bool zero = !(amax > 1e-30f);  // zero (or NaN) row: all X = 0
    scales[i] = zero ? 0.0f : amax / 127.0f;
    const __m512 inverse = _mm512_set1_ps(zero ? 0.0f : 127.0f / amax);
    const __m512i half = _mm512_set1_epi32(128);
    for (int64_t j = 0; j < d; j += kBlock) {
      const __mmask16 m = lanes(d - j, 0);
      const __m512i xi =
          _mm512_cvtps_epi32(_mm512_mul_ps(_mm512_maskz_loadu_ps(m, x + j), inverse));
      _mm512_mask_cvtepi32_storeu_epi8(q + j, m, _mm512_add_epi32(xi, half));
    }
    std::fill(q + d, q + ldq, uint8_t{128});
  }
}

// The AVX2 kernel: block b (16 channels, two vectors of 8) of up to 4 rows. 16 registers: 8
// accumulators, 2 weights, the input and its magnitude, the products.
template <int R>
ATENTO_AVX2 void avx2_block(const Tile& t, int b) {
  const int64_t steps = t.ldq / 4;
  const int8_t* w = t.w + b * steps * 64;
  const __m256i ones = _mm256_set1_epi16(1);
  __m256i acc[R][2];
#pragma GCC unroll 4
  for (int r = 0; r < R; ++r) acc[r][0] = acc[r][1] = _mm256_setzero_si256();
  for (int64_t k = 0; k < steps; ++k, w += 64) {
    const __m256i w0 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w));       // 0–7
    const __m256i w1 = _mm256_loadu_si256(reinterpret_cast<const __m256i*>(w + 32));  // 8–15
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      int32_t four;  // 4 signed input bytes of row r, broadcast to the 8 lanes
      std::memcpy(&four, t.q + r * t.ldq + 4 * k, sizeof four);
      const __m256i x = _mm256_set1_epi32(four);
      const __m256i magnitude = _mm256_abs_epi8(x);
      const __m256i p0 = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w0, x));
      const __m256i p1 = _mm256_maddubs_epi16(magnitude, _mm256_sign_epi8(w1, x));
      acc[r][0] = _mm256_add_epi32(acc[r][0], _mm256_madd_epi16(p0, ones));
      acc[r][1] = _mm256_add_epi32(acc[r][1], _mm256_madd_epi16(p1, ones));
    }
  }
  const __m256i lane = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7);
#pragma GCC unroll 2
  for (int h = 0; h < 2; ++h) {
    const int64_t first = kBlock * b + 8 * h;  // the vector's first channel in the tile
    if (first >= t.cols) break;
    const int left = static_cast<int>(std::min<int64_t>(8, t.cols - first));
    const __m256i m = _mm256_cmpgt_epi32(_mm256_set1_epi32(left), lane);
    const __m256 s = _mm256_loadu_ps(t.scale + first);  // padded: always 8 there
    const __m256 bias =
        t.bias != nullptr ? _mm256_maskload_ps(t.bias + first, m) : _mm256_setzero_ps();
#pragma GCC unroll 4
    for (int r = 0; r < R; ++r) {
      const __m256 st = _mm256_mul_ps(s, _mm256_set1_ps(t.row_scale[r]));
      const __m256 y = _mm256_fmadd_ps(_mm256_cvtepi32_ps(acc[r][h]), st, bias);
      _mm256_maskstore_ps(t.out + r * t.ldo + first, m, y);
    }
  }
}

template <int R>
ATENTO_AVX2 void avx2_tile(const Tile& t) {
  const int blocks = static_cast<int>((t.cols + kBlock - 1) / kBlock);
  for (int b = 0; b < blocks; ++b) avx2_block<R>(t, b);
}

// By rows; each tile loops over its blocks.
constexpr TileFn kAvx2Tiles[kMaxTileRows] = {&avx2_tile<1>, &avx2_tile<2>, &avx2_tile<3>,
                                             &avx2_tile<4>};

// Each row of x [N,D] → X in q as signed bytes (the padding holds 0, whose sign zeroes the
// weight) and its scale, as quantize_rows_vnni() computes them: the same X, the same t_n.
ATENTO_AVX2 void quantize_rows_avx2(const float* x, int64_t n, int64_t d, uint8_t* q, int64_t ldq,
                                    float* scales) {
  const __m256 sign_bit = _mm256_set1_ps(-0.0f);
  for (int64_t i = 0; i < n; ++i, x += d, q += ldq) {
    __m256 high = _mm256_setzero_ps();
    int64_t j = 0;
    for (; j + 8 <= d; j += 8) {
      high = _mm256_max_ps(high, _mm256_andnot_ps(sign_bit, _mm256_loadu_ps(x + j)));
    }
    alignas(32) float lanes8[8];
    _mm256_store_ps(lanes8, high);
    float amax = 0.0f;
    for (const float value : lanes8) amax = std::max(amax, value);
    for (; j < d; ++j) amax = std::max(amax, std::fabs(x[j]));
    const bool zero = !(amax > 1e-30f);  // zero (or NaN) row: all X = 0
    scales[i] = zero ? 0.0f : amax / 127.0f;
    const float inverse = zero ? 0.0f : 127.0f / amax;
    auto* out = reinterpret_cast<int8_t*>(q);
    for (j = 0; j < d; ++j) {
      const float value = std::nearbyint(x[j] * inverse);  // in [-127, 127], or NaN
      out[j] = value == value ? static_cast<int8_t>(value) : int8_t{0};
    }
    std::fill(out + d, out + ldq, int8_t{0});
  }
}

}  // namespace
#pragma GCC diagnostic pop
#endif

bool int8_isa_supported(Int8Isa isa) {
#ifdef ATENTO_INT8_GEMM
  if (isa == Int8Isa::kAvx2) return cpu_has_avx2_fma();
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
#else
  (void)isa;
  return false;
#endif
}

PackedInt8Weight pack_int8_weight(const torch::Tensor& weight) {
  TORCH_CHECK(weight.dim() == 2 && weight.device().is_cpu(),
              "pack_int8_weight: expected a CPU matrix, got ", weight.sizes());
  torch::NoGradGuard no_grad;
  auto w = weight.detach().to(torch::kFloat).contiguous();  // [V,D]
  PackedInt8Weight packed;
  packed.out = w.size(0);
  packed.in = w.size(1);
  const int64_t v = round_up(packed.out, kBlock), d = round_up(packed.in, 4);
  auto scale = w.abs().amax(1).clamp_min(1e-12) / 127.0;  // [V]
  auto q = torch::zeros({v, d}, torch::kInt8);            // [V',D']
  q.narrow(0, 0, packed.out)
      .narrow(1, 0, packed.in)
      .copy_(torch::round(w / scale.unsqueeze(1)).clamp_(-127, 127));
  // [V'/16, 16, D'/4, 4] → [V'/16, D'/4, 16, 4]: 64 bytes a step of one block
  packed.packed = q.view({v / kBlock, kBlock, d / 4, 4}).permute({0, 2, 1, 3}).contiguous();
  packed.offset = (q.to(torch::kInt).sum(1) * -128).to(torch::kInt).contiguous();  // [V']
  packed.scale = torch::zeros({v}, torch::kFloat);
  packed.scale.narrow(0, 0, packed.out).copy_(scale);
  return packed;
}

torch::Tensor packed_int8_linear(const torch::Tensor& x, const PackedInt8Weight& weight,
                                 const torch::Tensor& bias, Int8Isa isa) {
  const bool vnni = isa == Int8Isa::kAvx512Vnni;
  TORCH_CHECK(int8_isa_supported(isa), "packed_int8_linear: this CPU lacks ",
              vnni ? "AVX512-VNNI" : "AVX2");
  TORCH_CHECK(x.dim() == 2 && x.size(1) == weight.in && x.scalar_type() == torch::kFloat &&
                  x.is_contiguous(),
              "packed_int8_linear: expected contiguous fp32 [N,", weight.in, "], got ", x.sizes());
#ifdef ATENTO_INT8_GEMM
  const int64_t n = x.size(0), v = weight.out, ldq = weight.packed.size(1) * 4;
  auto out = torch::empty({n, v}, torch::kFloat);  // [N,V]
  if (n == 0 || v == 0) return out;
  auto q = torch::empty({n, ldq}, torch::kUInt8);
  auto row_scale = torch::empty({n}, torch::kFloat);
  (vnni ? quantize_rows_vnni : quantize_rows_avx2)(
      x.data_ptr<float>(), n, weight.in, q.data_ptr<uint8_t>(), ldq, row_scale.data_ptr<float>());
  torch::Tensor b;
  if (bias.defined()) b = bias.to(torch::kFloat).contiguous();
  const int64_t tile_cols = kBlock * kMaxTileBlocks;
  const int64_t tiles = (v + tile_cols - 1) / tile_cols;
  const int64_t block_bytes = ldq / 4 * 64;
  // About a million multiply-adds a task at least: small products stay on this thread.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 20) / (n * tile_cols * ldq));
  Tile base{q.data_ptr<uint8_t>(),
            ldq,
            row_scale.data_ptr<float>(),
            weight.packed.data_ptr<int8_t>(),
            weight.offset.data_ptr<int32_t>(),
            weight.scale.data_ptr<float>(),
            b.defined() ? b.data_ptr<float>() : nullptr,
            out.data_ptr<float>(),
            v,
            0};
  at::parallel_for(0, tiles, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r0 = 0; r0 < n; r0 += kRowChunk) {
      const int64_t r1 = std::min(n, r0 + kRowChunk);
      for (int64_t tile = begin; tile < end; ++tile) {
        const int64_t c0 = tile * tile_cols;
        const int64_t cols = std::min(tile_cols, v - c0);
        const int64_t blocks = (cols + kBlock - 1) / kBlock;
        Tile t = base;
        t.w += c0 / kBlock * block_bytes;
        t.offset += c0;
        t.scale += c0;
        if (t.bias != nullptr) t.bias += c0;
        t.cols = cols;
        for (int64_t r = r0; r < r1; r += kMaxTileRows) {
          const int64_t rows = std::min<int64_t>(kMaxTileRows, r1 - r);
          Tile rt = t;
          rt.q += r * ldq;
          rt.row_scale += r;
          rt.out += r * v + c0;
          if (vnni) {
            kVnniTiles[rows - 1][blocks - 1](rt);
          } else {
            kAvx2Tiles[rows - 1](rt);
          }
        }
      }
    }
  });
  return out;
#else
  (void)bias;
  return torch::Tensor();
#endif
}

}  // namespace atento::model
