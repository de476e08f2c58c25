// Clipping without a host read: LibTorch's clip_grad_norm_ arithmetic, the norm left on the
// device.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

#include "app/train/gradient_clipping.h"

namespace atento {
namespace {

std::vector<torch::Tensor> parameters_with_gradients(double gradient_scale) {
  torch::manual_seed(3);
  std::vector<torch::Tensor> params;
  for (auto shape : {std::vector<int64_t>{4, 5}, {7}, {2, 3, 2}}) {
    auto p = torch::randn(shape).requires_grad_();
    p.mutable_grad() = torch::randn(shape) * gradient_scale;
    params.push_back(p);
  }
  params.push_back(torch::randn({3}).requires_grad_());  // no gradient: skipped
  return params;
}

std::vector<torch::Tensor> copies(const std::vector<torch::Tensor>& params) {
  std::vector<torch::Tensor> out;
  for (const auto& p : params) {
    auto c = p.detach().clone().requires_grad_();
    if (p.grad().defined()) c.mutable_grad() = p.grad().clone();
    out.push_back(c);
  }
  return out;
}

TEST(ClipGradients, MatchesClipGradNormAndReturnsTheNormOnTheDevice) {
  for (double scale : {0.01, 1.0, 10.0}) {
    auto ours = parameters_with_gradients(scale);
    auto theirs = copies(ours);
    const double expected = torch::nn::utils::clip_grad_norm_(theirs, 1.0);
    const auto norm = clip_gradients(ours, 1.0);
    ASSERT_TRUE(norm.defined());
    EXPECT_EQ(norm.dim(), 0);
    EXPECT_NEAR(norm.item<double>(), expected, 1e-5 * expected);
    for (size_t i = 0; i + 1 < ours.size(); ++i) {
      EXPECT_TRUE(torch::allclose(ours[i].grad(), theirs[i].grad(), 1e-6, 1e-7))
          << "scale " << scale << ", parameter " << i;
    }
    EXPECT_FALSE(ours.back().grad().defined());
  }
}

TEST(ClipGradients, LeavesSmallGradientsAloneAndNoGradientsGiveNoNorm) {
  auto params = parameters_with_gradients(1e-3);
  const auto before = params[0].grad().clone();
  clip_gradients(params, 100.0);
  EXPECT_TRUE(torch::equal(params[0].grad(), before));
  std::vector<torch::Tensor> none{torch::zeros({2}).requires_grad_()};
  EXPECT_FALSE(clip_gradients(none, 1.0).defined());
}

}  // namespace
}  // namespace atento
