#include "model/projection.h"

#include <ATen/autocast_mode.h>
#include <torch/torch.h>

namespace atento::model {

torch::Tensor TransposedWeight::of(const torch::Tensor& weight) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto version = static_cast<int64_t>(weight._version());
  if (!transposed_.defined() || data_ != weight.data_ptr() || version_ != version) {
    transposed_ = weight.detach().t().contiguous();  // [V,D] → [D,V]
    data_ = weight.data_ptr();
    version_ = version;
  }
  return transposed_;
}

namespace {

bool fast_path(const torch::Tensor& hidden, const torch::Tensor& weight) {
  return !torch::GradMode::is_enabled() && !at::autocast::is_cpu_enabled() &&
         hidden.device().is_cpu() && weight.device().is_cpu() &&
         hidden.scalar_type() == torch::kFloat && weight.scalar_type() == torch::kFloat;
}

}  // namespace

torch::Tensor project(const torch::Tensor& hidden, const torch::Tensor& weight,
                      const torch::Tensor& bias, TransposedWeight* cache) {
  if (!fast_path(hidden, weight)) return torch::linear(hidden, weight, bias);
  const int64_t d = weight.size(1), v = weight.size(0);
  auto rows = hidden.reshape({-1, d});  // [..., D] → [N,D]
  auto sizes = hidden.sizes().vec();
  sizes.back() = v;
  if (rows.size(0) == 1) {
    auto out = bias.defined() ? torch::addmv(bias, weight, rows[0]) : torch::mv(weight, rows[0]);
    return out.reshape(sizes);  // [V,D]·[D] → [V] → [..., V]
  }
  if (cache == nullptr) return torch::linear(hidden, weight, bias);
  auto t = cache->of(weight);  // [D,V]
  auto out = bias.defined() ? torch::addmm(bias, rows, t) : torch::mm(rows, t);
  return out.reshape(sizes);  // [N,D]·[D,V] → [N,V] → [..., V]
}

}  // namespace atento::model
