#pragma once
// LibTorch's autocast state, read and set the same way whatever the LibTorch version: 2.4
// replaced 1.13's per-device functions (is_cpu_enabled, set_autocast_gpu_dtype…) by ones taking
// the device type. The one place that knows both spellings.

#include <c10/core/ScalarType.h>

namespace atento::model {

/// Whether autocast is on for the CPU (`cuda` false) or for CUDA devices.
bool autocast_enabled(bool cuda);

/// The dtype autocast casts to on the CPU or on CUDA devices.
c10::ScalarType autocast_dtype(bool cuda);

/// Switches autocast on or off for the CPU or CUDA devices, casting to `dtype`.
void set_autocast(bool cuda, bool enabled, c10::ScalarType dtype);

}  // namespace atento::model
