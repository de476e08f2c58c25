#include "model/moving_average.h"

#include <torch/torch.h>

#include <algorithm>

namespace atento::model {
namespace {

// Walks the parameters, then the buffers, of two modules of one architecture in step.
template <typename Visit>
void for_each_pair(torch::nn::Module& to, const torch::nn::Module& from, Visit&& visit) {
  auto to_params = to.parameters();
  auto from_params = from.parameters();
  auto to_buffers = to.buffers();
  auto from_buffers = from.buffers();
  TORCH_CHECK(to_params.size() == from_params.size() && to_buffers.size() == from_buffers.size(),
              "weight averaging: the two models have different architectures");
  for (size_t i = 0; i < to_params.size(); ++i) {
    TORCH_CHECK(to_params[i].sizes() == from_params[i].sizes(), "weight averaging: parameter ", i,
                " is ", to_params[i].sizes(), " and ", from_params[i].sizes());
    visit(to_params[i], from_params[i], /*is_parameter=*/true);
  }
  for (size_t i = 0; i < to_buffers.size(); ++i) {
    visit(to_buffers[i], from_buffers[i], /*is_parameter=*/false);
  }
}

}  // namespace

double average_decay(double decay, int64_t step) {
  return std::min(decay, (1.0 + static_cast<double>(step)) / (10.0 + static_cast<double>(step)));
}

void update_average(torch::nn::Module& average, const torch::nn::Module& model, double d) {
  TORCH_CHECK(d >= 0.0 && d <= 1.0, "weight averaging: decay ", d, " is outside [0, 1]");
  torch::NoGradGuard no_grad;
  for_each_pair(average, model, [&](torch::Tensor& a, const torch::Tensor& w, bool is_parameter) {
    if (is_parameter) {
      a.lerp_(w, 1.0 - d);  // a + (1 − d)(w − a) = d·a + (1 − d)·w
    } else {
      a.copy_(w);
    }
  });
}

void copy_weights(torch::nn::Module& to, const torch::nn::Module& from) {
  torch::NoGradGuard no_grad;
  for_each_pair(to, from, [](torch::Tensor& a, const torch::Tensor& w, bool) { a.copy_(w); });
}

}  // namespace atento::model
