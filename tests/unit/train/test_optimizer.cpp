// The optimiser train.optimizer names, with train.* hyper-parameters, and the per-step
// learning rate.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include "app/train/optimizer.h"

namespace atento {
namespace {

TEST(Optimizer, EachKindWithItsSettings) {
  torch::nn::Linear model(3, 2);
  TrainOptions t;
  t.lr = 0.01;
  t.beta1 = 0.8;
  t.beta2 = 0.95;
  t.eps = 1e-7;
  t.weight_decay = 0.1;
  t.rho = 0.7;

  t.optimizer = OptimizerKind::kAdam;
  auto adam = make_optimizer(t, model->parameters());
  auto* a = dynamic_cast<torch::optim::Adam*>(adam.get());
  ASSERT_NE(a, nullptr);
  const auto& ao = static_cast<const torch::optim::AdamOptions&>(a->defaults());
  EXPECT_EQ(ao.lr(), 0.01);
  EXPECT_EQ(std::get<0>(ao.betas()), 0.8);
  EXPECT_EQ(std::get<1>(ao.betas()), 0.95);
  EXPECT_EQ(ao.eps(), 1e-7);
  EXPECT_EQ(ao.weight_decay(), 0.1);

  t.optimizer = OptimizerKind::kAdamW;
  auto adamw = make_optimizer(t, model->parameters());
  ASSERT_NE(dynamic_cast<torch::optim::AdamW*>(adamw.get()), nullptr);

  t.optimizer = OptimizerKind::kRmsprop;
  auto rmsprop = make_optimizer(t, model->parameters());
  auto* r = dynamic_cast<torch::optim::RMSprop*>(rmsprop.get());
  ASSERT_NE(r, nullptr);
  const auto& ro = static_cast<const torch::optim::RMSpropOptions&>(r->defaults());
  EXPECT_EQ(ro.alpha(), 0.7);
  EXPECT_EQ(ro.eps(), 1e-7);
}

TEST(Optimizer, SetLearningRateReachesEveryGroup) {
  torch::nn::Linear model(3, 2);
  TrainOptions t;
  auto optimizer = make_optimizer(t, model->parameters());
  set_learning_rate(*optimizer, 0.125);
  for (auto& group : optimizer->param_groups()) EXPECT_EQ(group.options().get_lr(), 0.125);
}

}  // namespace
}  // namespace atento
