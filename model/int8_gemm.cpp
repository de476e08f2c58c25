#include "model/int8_gemm.h"

#include <ATen/Parallel.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstring>

#if defined(__x86_64__) && defined(__GNUC__)
#include <immintrin.h>
#define ATENTO_VNNI_GEMM 1
#define ATENTO_VNNI __attribute__((target("avx512f,avx512bw,avx512vnni")))
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
  const uint8_t* q;        // first row's quantised input (X + 128), ldq bytes a row
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

#ifdef ATENTO_VNNI_GEMM
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

const TileFn* const kTiles[kMaxTileRows] = {kRowTiles<1>, kRowTiles<2>, kRowTiles<3>, kRowTiles<4>};

// Each row of x [N,D] → X + 128 in q (N rows of ldq bytes; the padding holds 128, which meets
// zero weights) and its scale t_n = max|x_n| / 127 (0 for a zero row).
ATENTO_VNNI void quantize_rows(const float* x, int64_t n, int64_t d, uint8_t* q, int64_t ldq,
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

}  // namespace
#pragma GCC diagnostic pop
#endif

bool vnni_gemm_supported() {
#ifdef ATENTO_VNNI_GEMM
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512bw") &&
         __builtin_cpu_supports("avx512vnni");
#else
  return false;
#endif
}

VnniWeight pack_vnni_weight(const torch::Tensor& weight) {
  TORCH_CHECK(weight.dim() == 2 && weight.device().is_cpu(),
              "pack_vnni_weight: expected a CPU matrix, got ", weight.sizes());
  torch::NoGradGuard no_grad;
  auto w = weight.detach().to(torch::kFloat).contiguous();  // [V,D]
  VnniWeight packed;
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

torch::Tensor vnni_linear(const torch::Tensor& x, const VnniWeight& weight,
                          const torch::Tensor& bias) {
  TORCH_CHECK(vnni_gemm_supported(), "vnni_linear: this CPU lacks AVX512-VNNI");
  TORCH_CHECK(x.dim() == 2 && x.size(1) == weight.in && x.scalar_type() == torch::kFloat &&
                  x.is_contiguous(),
              "vnni_linear: expected contiguous fp32 [N,", weight.in, "], got ", x.sizes());
#ifdef ATENTO_VNNI_GEMM
  const int64_t n = x.size(0), v = weight.out, ldq = weight.packed.size(1) * 4;
  auto out = torch::empty({n, v}, torch::kFloat);  // [N,V]
  if (n == 0 || v == 0) return out;
  auto q = torch::empty({n, ldq}, torch::kUInt8);
  auto row_scale = torch::empty({n}, torch::kFloat);
  quantize_rows(x.data_ptr<float>(), n, weight.in, q.data_ptr<uint8_t>(), ldq,
                row_scale.data_ptr<float>());
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
          kTiles[rows - 1][blocks - 1](rt);
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
