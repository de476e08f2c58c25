#include "model/projection.h"

#include <ATen/autocast_mode.h>
#include <c10/core/impl/LocalDispatchKeySet.h>
#include <torch/torch.h>

#include "model/autocast.h"

namespace atento::model {

template <typename T, typename Make>
T WeightCache::refreshed(Copy<T>& copy, const torch::Tensor& weight, Make make) {
  std::lock_guard<std::mutex> lock(mutex_);
  const auto version = static_cast<int64_t>(weight._version());
  if (copy.version < 0 || copy.data != weight.data_ptr() || copy.version != version) {
    copy.value = make(weight.detach());
    copy.data = weight.data_ptr();
    copy.version = version;
  }
  return copy.value;
}

torch::Tensor WeightCache::transposed(const torch::Tensor& weight) {
  return refreshed(transposed_, weight, [](const torch::Tensor& w) {
    return w.t().contiguous();  // [V,D] → [D,V]
  });
}

torch::Tensor WeightCache::bf16(const torch::Tensor& weight) {
  return refreshed(bf16_, weight, [](const torch::Tensor& w) { return w.to(torch::kBFloat16); });
}

std::shared_ptr<const Int8Weight> WeightCache::int8(const torch::Tensor& weight) {
  return refreshed(int8_, weight, [](const torch::Tensor& w) {
    return std::shared_ptr<const Int8Weight>(std::make_shared<Int8Weight>(w));
  });
}

namespace {

bool cpu_autocast() { return autocast_enabled(/*cuda=*/false); }

torch::ScalarType cpu_autocast_dtype() { return autocast_dtype(/*cuda=*/false); }

bool cpu_fp32_weight(const torch::Tensor& hidden, const torch::Tensor& weight) {
  return hidden.device().is_cpu() && weight.device().is_cpu() &&
         weight.scalar_type() == torch::kFloat;
}

}  // namespace

bool bf16_decoding() {
  return !torch::GradMode::is_enabled() && cpu_autocast() &&
         cpu_autocast_dtype() == torch::kBFloat16;
}

torch::Tensor project(const torch::Tensor& hidden, const torch::Tensor& weight,
                      const torch::Tensor& bias, WeightCache* cache) {
  if (torch::GradMode::is_enabled() || !cpu_fp32_weight(hidden, weight)) {
    return torch::linear(hidden, weight, bias);
  }
  const bool autocast = cpu_autocast();
  if (autocast && !bf16_decoding()) return torch::linear(hidden, weight, bias);
  if (cache != nullptr && !autocast && int8_decoding()) {
    return int8_linear(hidden, *cache->int8(weight), bias);  // [..., D] → [..., V]
  }
  const int64_t d = weight.size(1), v = weight.size(0);
  auto rows = hidden.reshape({-1, d});  // [..., D] → [N,D]
  auto sizes = hidden.sizes().vec();
  sizes.back() = v;
  if (rows.size(0) == 1) {
    // One row: an fp32 matrix-vector product, faster than a GEMM in either precision.
    c10::impl::ExcludeDispatchKeyGuard no_autocast(c10::DispatchKey::AutocastCPU);
    auto x = rows[0].to(torch::kFloat);  // [D]
    auto out = bias.defined() ? torch::addmv(bias, weight, x) : torch::mv(weight, x);
    return out.reshape(sizes);  // [V,D]·[D] → [V] → [..., V]
  }
  if (cache == nullptr) return torch::linear(hidden, weight, bias);
  if (autocast) return torch::linear(hidden, cache->bf16(weight), bias);  // casts hidden, bias
  if (hidden.scalar_type() != torch::kFloat) return torch::linear(hidden, weight, bias);
  auto t = cache->transposed(weight);  // [D,V]
  auto out = bias.defined() ? torch::addmm(bias, rows, t) : torch::mm(rows, t);
  return out.reshape(sizes);  // [N,D]·[D,V] → [N,V] → [..., V]
}

torch::Tensor dense(const torch::Tensor& x, const torch::nn::Linear& layer, WeightCache* cache) {
  const int64_t rows = x.numel() / std::max<int64_t>(1, x.size(-1));
  // fp32: one row while decoding is matrix-vector, a few rows use the transposed copy;
  // bf16 (int8) decoding: every product uses the bf16 (int8) copy
  const bool use_cache = rows <= kFewRows || bf16_decoding() || int8_decoding();
  return project(x, layer->weight, layer->bias, use_cache ? cache : nullptr);
}

}  // namespace atento::model
