#pragma once
// A tensor's values copied into a std::vector on the host (any device, any numeric dtype).

#include <torch/torch.h>

#include <cstdint>
#include <vector>

namespace atento::model {

/// t's values as int64, in row-major order.
inline std::vector<int64_t> long_values(const torch::Tensor& t) {
  const auto cpu = t.to(torch::kCPU, torch::kLong).contiguous();
  return {cpu.data_ptr<int64_t>(), cpu.data_ptr<int64_t>() + cpu.numel()};
}

/// t's values as float, in row-major order.
inline std::vector<float> float_values(const torch::Tensor& t) {
  const auto cpu = t.to(torch::kCPU, torch::kFloat).contiguous();
  return {cpu.data_ptr<float>(), cpu.data_ptr<float>() + cpu.numel()};
}

}  // namespace atento::model
