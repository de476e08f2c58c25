#include "app/precision.h"

#include <ATen/autocast_mode.h>
#include <torch/version.h>

namespace atento {
namespace {

// LibTorch 2.4 replaced the per-device autocast functions (1.13's) by ones taking the device
// type.

bool autocast_enabled(bool cuda) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  return at::autocast::is_autocast_enabled(cuda ? at::kCUDA : at::kCPU);
#else
  return cuda ? at::autocast::is_enabled() : at::autocast::is_cpu_enabled();
#endif
}

torch::ScalarType autocast_dtype(bool cuda) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  return at::autocast::get_autocast_dtype(cuda ? at::kCUDA : at::kCPU);
#else
  return cuda ? at::autocast::get_autocast_gpu_dtype() : at::autocast::get_autocast_cpu_dtype();
#endif
}

void set_autocast(bool cuda, bool enabled, torch::ScalarType dtype) {
#if TORCH_VERSION_MAJOR > 2 || (TORCH_VERSION_MAJOR == 2 && TORCH_VERSION_MINOR >= 4)
  const auto type = cuda ? at::kCUDA : at::kCPU;
  at::autocast::set_autocast_dtype(type, dtype);
  at::autocast::set_autocast_enabled(type, enabled);
#else
  if (cuda) {
    at::autocast::set_autocast_gpu_dtype(dtype);
    at::autocast::set_enabled(enabled);
  } else {
    at::autocast::set_autocast_cpu_dtype(dtype);
    at::autocast::set_cpu_enabled(enabled);
  }
#endif
}

}  // namespace

bool cpu_has_native_bf16() {
#if defined(__x86_64__) || defined(__i386__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512bf16") != 0;
#else
  return false;
#endif
}

Precision resolve_precision(Precision precision, const torch::Device& device) {
  if (precision != Precision::kAuto) return precision;
  return device.is_cpu() && cpu_has_native_bf16() ? Precision::kBf16 : Precision::kFp32;
}

const char* precision_name(Precision resolved) {
  return resolved == Precision::kBf16 ? "bf16" : "fp32";
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

AutocastGuard::~AutocastGuard() {
  if (!active_) return;
  set_autocast(cuda_, was_enabled_, previous_dtype_);
  // The outermost guard drops the bf16 copies of the weights autocast cached meanwhile.
  if (at::autocast::decrement_nesting() == 0) at::autocast::clear_cache();
}

}  // namespace atento
