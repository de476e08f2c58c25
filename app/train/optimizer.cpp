#include "app/train/optimizer.h"

#include <torch/optim/adam.h>
#include <torch/optim/adamw.h>
#include <torch/optim/rmsprop.h>

#include <memory>
#include <stdexcept>
#include <utility>

namespace atento {

double decay_of(const TrainOptions& t, const torch::Tensor& p) {
  return p.dim() < 2 && !t.decay_vectors ? 0.0 : t.weight_decay;
}

namespace {

/// The options of train.optimizer from train.*, with weight decay `decay`.
std::unique_ptr<torch::optim::OptimizerOptions> options_for(const TrainOptions& t, double decay) {
  switch (t.optimizer) {
    case OptimizerKind::kAdam:
      return std::make_unique<torch::optim::AdamOptions>(
          torch::optim::AdamOptions(t.lr).betas({t.beta1, t.beta2}).eps(t.eps).weight_decay(decay));
    case OptimizerKind::kAdamW:
      return std::make_unique<torch::optim::AdamWOptions>(torch::optim::AdamWOptions(t.lr)
                                                              .betas({t.beta1, t.beta2})
                                                              .eps(t.eps)
                                                              .weight_decay(decay));
    case OptimizerKind::kRmsprop:
      return std::make_unique<torch::optim::RMSpropOptions>(
          torch::optim::RMSpropOptions(t.lr).alpha(t.rho).eps(t.eps).weight_decay(decay));
  }
  throw std::logic_error("unknown optimizer");
}

/// `params` in groups of equal weight decay, each a run of neighbours, so the groups joined are
/// `params` in their order (optimiser files number the parameters in that order, and a run
/// resumed with another train.decay_vectors reads its state back to the same parameters).
std::vector<torch::optim::OptimizerParamGroup> groups_of(const TrainOptions& t,
                                                         const std::vector<torch::Tensor>& params) {
  std::vector<torch::optim::OptimizerParamGroup> groups;
  for (size_t begin = 0; begin < params.size();) {
    const double decay = decay_of(t, params[begin]);
    size_t end = begin + 1;
    while (end < params.size() && decay_of(t, params[end]) == decay) ++end;
    groups.emplace_back(std::vector<torch::Tensor>(params.begin() + begin, params.begin() + end),
                        options_for(t, decay));
    begin = end;
  }
  return groups;
}

template <class Optimizer, class Options>
std::unique_ptr<torch::optim::Optimizer> make(const TrainOptions& t,
                                              const std::vector<torch::Tensor>& params) {
  const auto defaults = options_for(t, t.weight_decay);
  return std::make_unique<Optimizer>(groups_of(t, params), static_cast<Options&>(*defaults));
}

}  // namespace

std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& t,
                                                        std::vector<torch::Tensor> params) {
  switch (t.optimizer) {
    case OptimizerKind::kAdam:
      return make<torch::optim::Adam, torch::optim::AdamOptions>(t, params);
    case OptimizerKind::kAdamW:
      return make<torch::optim::AdamW, torch::optim::AdamWOptions>(t, params);
    case OptimizerKind::kRmsprop:
      return make<torch::optim::RMSprop, torch::optim::RMSpropOptions>(t, params);
  }
  throw std::logic_error("unknown optimizer");
}

void set_learning_rate(torch::optim::Optimizer& optimizer, double lr) {
  for (auto& group : optimizer.param_groups()) group.options().set_lr(lr);
}

}  // namespace atento
