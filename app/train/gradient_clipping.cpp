#include "app/train/gradient_clipping.h"

#include <torch/torch.h>

namespace atento {

torch::Tensor clip_gradients(const std::vector<torch::Tensor>& parameters, double max_norm) {
  torch::NoGradGuard no_grad;
  std::vector<torch::Tensor> grads;
  for (const auto& parameter : parameters) {
    if (parameter.grad().defined()) grads.push_back(parameter.grad());
  }
  if (grads.empty()) return {};
  std::vector<torch::Tensor> norms;
  norms.reserve(grads.size());
  for (const auto& grad : grads) norms.push_back(grad.norm(2));             // []
  auto total = norms.size() == 1 ? norms[0] : torch::stack(norms).norm(2);  // [n] → []
  auto scale = (max_norm / (total + 1e-6)).clamp_max(1.0);                  // []
  for (auto& grad : grads) grad.mul_(scale);
  return total;
}

}  // namespace atento
