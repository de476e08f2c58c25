#include "app/common/precision.h"

#include <ATen/autocast_mode.h>

#include "model/autocast.h"

namespace atento {

using model::autocast_dtype;
using model::autocast_enabled;
using model::set_autocast;

bool cpu_has_native_bf16() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16") != 0;
#else
  return false;
#endif
}

bool cpu_has_int8_dot() { return model::auto_int8_kernel() != model::Int8Kernel::kQuantizedEngine; }

Precision resolve_precision(Precision precision, const torch::Device& device) {
  if (precision != Precision::kAuto) return precision;
  return device.is_cpu() && cpu_has_native_bf16() ? Precision::kBf16 : Precision::kFp32;
}

Precision auto_decoding_precision(bool native_bf16, bool int8_dot, bool int8_engine) {
  if (native_bf16) return Precision::kBf16;
  return int8_dot && int8_engine ? Precision::kInt8 : Precision::kFp32;
}

// Whether auto may pick int8 at all: yes since Atento's kernel (model/int8_gemm.h) made int8
// decoding faster than fp32 end to end, in AVX512-VNNI and in AVX2 (docs/results.md#int8-decoding).
constexpr bool kAutoMayPickInt8 = true;

Precision resolve_decoding_precision(Precision precision, const torch::Device& device) {
  if (precision != Precision::kAuto) return precision;
  if (!device.is_cpu()) return Precision::kFp32;
  return auto_decoding_precision(cpu_has_native_bf16(), kAutoMayPickInt8 && cpu_has_int8_dot(),
                                 model::int8_supported());
}

const char* precision_name(Precision resolved) {
  switch (resolved) {
    case Precision::kBf16:
      return "bf16";
    case Precision::kInt8:
      return "int8";
    case Precision::kAuto:
      return "auto";
    case Precision::kFp32:
      break;
  }
  return "fp32";
}

AutocastGuard::AutocastGuard(Precision precision, const torch::Device& device) {
  if (resolve_precision(precision, device) != Precision::kBf16) return;
  active_ = true;
  cuda_ = device.is_cuda();
  was_enabled_ = autocast_enabled(cuda_);
  previous_dtype_ = autocast_dtype(cuda_);
  at::autocast::increment_nesting();
  set_autocast(cuda_, true, torch::kBFloat16);
}

DecodingPrecisionGuard::DecodingPrecisionGuard(Precision precision, const torch::Device& device)
    : resolved_(resolve_decoding_precision(precision, device)),
      autocast_(resolved_, device),
      int8_(resolved_ == Precision::kInt8 && device.is_cpu()) {}

AutocastGuard::~AutocastGuard() {
  if (!active_) return;
  set_autocast(cuda_, was_enabled_, previous_dtype_);
  // The outermost guard drops the bf16 copies of the weights autocast cached meanwhile.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
}

}  // namespace atento
