#include "model/int8_linear.h"

#include <ATen/Context.h>
#include <ATen/core/dispatch/Dispatcher.h>
#include <ATen/native/quantized/PackedParams.h>
#include <torch/torch.h>

#include <algorithm>

namespace atento::model {
namespace {

using Packed = c10::intrusive_ptr<LinearPackedParamsBase>;

bool has_engine(at::QEngine engine) {
  const auto& engines = at::globalContext().supportedQEngines();
  return std::find(engines.begin(), engines.end(), engine) != engines.end();
}

// oneDNN first: it is the engine the Debian LibTorch has; fbgemm where a build has it instead.
bool choose_engine() {
  if (has_engine(at::QEngine::ONEDNN)) {
    at::globalContext().setQEngine(at::QEngine::ONEDNN);
    return true;
  }
  if (has_engine(at::QEngine::FBGEMM)) {
    at::globalContext().setQEngine(at::QEngine::FBGEMM);
    return true;
  }
  return false;
}

bool engine_ready() {
  static const bool ready = choose_engine();  // once, thread-safe
  return ready;
}

// What quantized::linear_prepack packs for the current engine.
Packed prepack(const torch::Tensor& quantized) {
  static auto op = c10::Dispatcher::singleton()
                       .findSchemaOrThrow("quantized::linear_prepack", "")
                       .typed<Packed(at::Tensor, c10::optional<at::Tensor>)>();
  return op.call(quantized, c10::nullopt);
}

}  // namespace

int64_t padded_rows(int64_t rows) {
  if (rows <= 8) return 8;
  // 8 steps per power of two: at most 12.5% zero rows
  int64_t step = 1;
  while (step * 16 <= rows) step *= 2;
  return (rows + step - 1) / step * step;
}

bool int8_supported() {
  return auto_int8_kernel() != Int8Kernel::kQuantizedEngine || engine_ready();
}

Int8Kernel auto_int8_kernel() {
  if (int8_isa_supported(Int8Isa::kAvx512Vnni)) return Int8Kernel::kVnni;
  if (int8_isa_supported(Int8Isa::kAvx2)) return Int8Kernel::kAvx2;
  return Int8Kernel::kQuantizedEngine;
}

const char* int8_kernel_name(Int8Kernel kernel) {
  switch (kernel) {
    case Int8Kernel::kVnni:
      return "vnni";
    case Int8Kernel::kAvx2:
      return "avx2";
    case Int8Kernel::kQuantizedEngine:
      return "quantized engine";
    case Int8Kernel::kAuto:
      break;
  }
  return "auto";
}

Int8Weight::Int8Weight(const torch::Tensor& weight, Int8Kernel kernel) {
  TORCH_CHECK(
      weight.dim() == 2 && weight.device().is_cpu() && weight.scalar_type() == torch::kFloat,
      "Int8Weight: expected an fp32 CPU matrix, got ", weight.sizes(), " ", weight.scalar_type());
  torch::NoGradGuard no_grad;
  auto w = weight.detach().contiguous();  // [V,D]
  out_ = w.size(0);
  in_ = w.size(1);
  if (kernel == Int8Kernel::kAuto) kernel = auto_int8_kernel();
  kernel_ = kernel;
  if (kernel != Int8Kernel::kQuantizedEngine) {
    const bool vnni = kernel == Int8Kernel::kVnni;
    TORCH_CHECK(int8_isa_supported(vnni ? Int8Isa::kAvx512Vnni : Int8Isa::kAvx2),
                "int8 decoding with Atento's kernel needs ", vnni ? "AVX512-VNNI" : "AVX2");
    own_ = pack_int8_weight(w);
    return;
  }
  TORCH_CHECK(engine_ready(),
              "int8 decoding needs an x86 CPU with AVX2 or LibTorch's oneDNN or fbgemm "
              "quantized engine, which this LibTorch lacks");
  // Symmetric per output channel: zero point 0 (what oneDNN requires), scale max|w_v| / 127.
  auto scales = (w.abs().amax(1).clamp_min(1e-12) / 127.0).to(torch::kDouble);  // [V]
  auto zero_points = torch::zeros({out_}, torch::kLong);
  packed_ = prepack(torch::quantize_per_channel(w, scales, zero_points, 0, torch::kQInt8));
}

Int8Weight::~Int8Weight() = default;

torch::Tensor int8_linear(const torch::Tensor& x, const Int8Weight& weight,
                          const torch::Tensor& bias) {
  const int64_t d = weight.in_features();
  TORCH_CHECK(x.size(-1) == d, "int8_linear: input width ", x.size(-1), " != ", d);
  auto rows = x.reshape({-1, d}).to(torch::kFloat);  // [N,D]
  const int64_t n = rows.size(0);
  auto sizes = x.sizes().vec();
  sizes.back() = weight.out_features();
  if (weight.kernel() != Int8Kernel::kQuantizedEngine) {
    const auto isa = weight.kernel() == Int8Kernel::kVnni ? Int8Isa::kAvx512Vnni : Int8Isa::kAvx2;
    return packed_int8_linear(rows.contiguous(), weight.own(), bias, isa).reshape(sizes);
  }
  // Each row over its largest magnitude, then a row holding +1 and -1 (two when D = 1): the
  // range apply_dynamic quantises with is always [-1, 1], whatever the other rows. The rest of
  // the input is zero rows up to padded_rows(): oneDNN builds its kernel anew for every row
  // count (about 6 ms), and a decoding job meets hundreds of row counts otherwise.
  auto scale = rows.abs().amax(-1, /*keepdim=*/true).clamp_min_(1e-30);  // [N,1]
  const int64_t extra = d >= 2 ? 1 : 2;
  auto input = torch::zeros({padded_rows(n + extra), d}, rows.options());  // [M,D]
  auto head = input.narrow(0, 0, n);
  torch::div_out(head, rows, scale);
  auto range = input.narrow(0, n, extra).view({-1});
  range[0].fill_(1.0);
  range[1].fill_(-1.0);
  // 7-bit input: without VNNI, oneDNN multiplies unsigned input by signed weight bytes with
  // vpmaddubsw, whose 16-bit pair sums saturate at full range (measured on an AVX2 CPU: rows off
  // by half their magnitude); Atento's kernel serves every x86 CPU with AVX2 or VNNI, so this is
  // the path of the other CPUs only.
  auto product = weight.packed().apply_dynamic(input, /*reduce_range=*/true).narrow(0, 0, n);
  // [N,V] · the row scales (+ bias [V])
  auto out =
      bias.defined() ? torch::addcmul(bias.to(torch::kFloat), product, scale) : product.mul_(scale);
  return out.reshape(sizes);
}

namespace {
thread_local bool int8_on = false;
}  // namespace

bool int8_decoding() { return int8_on && !torch::GradMode::is_enabled(); }

Int8DecodingScope::Int8DecodingScope(bool enabled) : previous_(int8_on) {
  if (enabled) int8_on = true;
}

Int8DecodingScope::~Int8DecodingScope() { int8_on = previous_; }

}  // namespace atento::model
