// The optimiser train.optimizer names, with train.* hyper-parameters, the parameters that
// weight decay spares, and the per-step learning rate.
#include <gtest/gtest.h>
#include <torch/torch.h>

#include <vector>

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

// Linear, LayerNorm, Linear: matrices and vectors interleaved, every value in [0.5, 1.5] (the
// norm's shift starts at 0, which no decay moves).
std::vector<torch::Tensor> interleaved_parameters() {
  torch::manual_seed(5);
  torch::nn::Sequential model(torch::nn::Linear(3, 4),
                              torch::nn::LayerNorm(torch::nn::LayerNormOptions({4})),
                              torch::nn::Linear(4, 2));
  torch::NoGradGuard no_grad;
  for (auto& p : model->parameters()) p.uniform_(0.5, 1.5);
  return model->parameters();
}

std::vector<torch::Tensor> joined_groups(const torch::optim::Optimizer& optimizer) {
  std::vector<torch::Tensor> joined;
  for (const auto& group : optimizer.param_groups()) {
    joined.insert(joined.end(), group.params().begin(), group.params().end());
  }
  return joined;
}

TEST(Optimizer, GroupsKeepTheParametersOrderWhicheverDecays) {
  const auto params = interleaved_parameters();
  for (bool decay_vectors : {true, false}) {
    TrainOptions t;
    t.optimizer = OptimizerKind::kAdamW;
    t.weight_decay = 0.1;
    t.decay_vectors = decay_vectors;
    auto optimizer = make_optimizer(t, params);
    const auto joined = joined_groups(*optimizer);
    ASSERT_EQ(joined.size(), params.size());
    for (size_t i = 0; i < params.size(); ++i) EXPECT_TRUE(joined[i].is_same(params[i])) << i;
    // Spared: {weight}, {bias, the norm's gain and shift}, {weight}, {bias}.
    EXPECT_EQ(optimizer->param_groups().size(), decay_vectors ? 1u : 4u);
  }
}

// With zero gradients an AdamW step is its decay alone: matrices shrink by 1 − lr·λ, and the
// vectors (biases, the norm's gain and shift) keep their values unless they decay too.
TEST(Optimizer, DecaysTheVectorsOnlyWhenAsked) {
  for (auto kind : {OptimizerKind::kAdamW, OptimizerKind::kAdam, OptimizerKind::kRmsprop}) {
    for (bool decay_vectors : {true, false}) {
      auto params = interleaved_parameters();
      std::vector<torch::Tensor> before;
      for (auto& p : params) {
        before.push_back(p.detach().clone());
        p.mutable_grad() = torch::zeros_like(p);
      }
      TrainOptions t;
      t.optimizer = kind;
      t.lr = 0.1;
      t.weight_decay = 0.5;
      t.decay_vectors = decay_vectors;
      make_optimizer(t, params)->step();
      for (size_t i = 0; i < params.size(); ++i) {
        const bool decays = params[i].dim() >= 2 || decay_vectors;
        EXPECT_EQ(torch::equal(params[i].detach(), before[i]), !decays)
            << "kind " << static_cast<int>(kind) << ", parameter " << i;
      }
    }
  }
}

TEST(Optimizer, SetLearningRateReachesEveryGroup) {
  torch::nn::Linear model(3, 2);
  TrainOptions t;
  t.weight_decay = 0.1;
  t.decay_vectors = false;  // two groups
  auto optimizer = make_optimizer(t, model->parameters());
  ASSERT_EQ(optimizer->param_groups().size(), 2u);
  set_learning_rate(*optimizer, 0.125);
  for (auto& group : optimizer->param_groups()) EXPECT_EQ(group.options().get_lr(), 0.125);
}

}  // namespace
}  // namespace atento
