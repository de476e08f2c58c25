// project: the CPU decoding paths (matrix-vector for one row, a cached [D,V] copy for more)
// give torch::linear's result for any leading shape, with and without a cache or a bias,
// follow in-place weight updates and new weight tensors, and leave training (gradients) on
// torch::linear.

#include <gtest/gtest.h>
#include <torch/torch.h>

#include "model/projection.h"

namespace atento::model {
namespace {

struct Projection {
  torch::Tensor weight = torch::randn({50, 8});  // [V,D]
  torch::Tensor bias = torch::randn({50});       // [V]
  WeightCache cache;
};

TEST(ModelProjection, AgreesWithLinearForOneRowManyRowsAndLeadingDimensions) {
  torch::manual_seed(3);
  Projection p;
  torch::NoGradGuard no_grad;
  for (auto sizes : std::vector<std::vector<int64_t>>{{1, 8}, {1, 1, 8}, {7, 8}, {3, 4, 8}}) {
    auto hidden = torch::randn(sizes);
    auto fast = project(hidden, p.weight, p.bias, &p.cache);
    auto want = torch::linear(hidden, p.weight, p.bias);
    ASSERT_EQ(fast.sizes(), want.sizes());
    EXPECT_TRUE(torch::allclose(fast, want, 1e-5, 1e-5)) << hidden.sizes();
    EXPECT_TRUE(torch::allclose(project(hidden, p.weight, p.bias), want, 1e-5, 1e-5));
    EXPECT_TRUE(torch::allclose(project(hidden, p.weight, torch::Tensor(), &p.cache),
                                torch::linear(hidden, p.weight), 1e-5, 1e-5));
  }
}

TEST(ModelProjection, FollowsInPlaceUpdatesAndNewWeights) {
  torch::manual_seed(4);
  Projection p;
  auto hidden = torch::randn({5, 8});
  torch::NoGradGuard no_grad;
  auto before = project(hidden, p.weight, p.bias, &p.cache);
  p.weight.mul_(2.0);  // an optimizer step: same storage, new version
  auto after = project(hidden, p.weight, p.bias, &p.cache);
  EXPECT_TRUE(torch::allclose(after, torch::linear(hidden, p.weight, p.bias), 1e-5, 1e-5));
  EXPECT_FALSE(torch::allclose(after, before));
  auto other = torch::randn({50, 8});  // another tensor (loaded weights)
  EXPECT_TRUE(torch::allclose(project(hidden, other, p.bias, &p.cache),
                              torch::linear(hidden, other, p.bias), 1e-5, 1e-5));
}

TEST(ModelProjection, GradientsFlowWhenTraining) {
  torch::manual_seed(5);
  Projection p;
  p.weight.set_requires_grad(true);
  auto hidden = torch::randn({3, 8}, torch::requires_grad());
  project(hidden, p.weight, p.bias, &p.cache).sum().backward();
  ASSERT_TRUE(p.weight.grad().defined());
  ASSERT_TRUE(hidden.grad().defined());
  // d(sum)/dW[v] = sum over rows of hidden
  EXPECT_TRUE(torch::allclose(p.weight.grad()[0], hidden.detach().sum(0)));
}

}  // namespace
}  // namespace atento::model
