#include "app/train/optimizer.h"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>

#include <stdexcept>

namespace atento {

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& t,
                                                        std::vector<torch::Tensor> params) {
  switch (t.optimizer) {
    case OptimizerKind::kAdam:
      return std::make_unique<torch::optim::Adam>(params, torch::optim::AdamOptions(t.lr)
                                                              .betas({t.beta1, t.beta2})
                                                              .eps(t.eps)
                                                              .weight_decay(t.weight_decay));
    case OptimizerKind::kAdamW:
      return std::make_unique<torch::optim::AdamW>(params, torch::optim::AdamWOptions(t.lr)
                                                               .betas({t.beta1, t.beta2})
                                                               .eps(t.eps)
                                                               .weight_decay(t.weight_decay));
    case OptimizerKind::kRmsprop:
      return std::make_unique<torch::optim::RMSprop>(
          params,
          torch::optim::RMSpropOptions(t.lr).alpha(t.rho).eps(t.eps).weight_decay(t.weight_decay));
  }
  throw std::logic_error("unknown optimizer");
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace atento
