#pragma once
// The optimiser of atento-train, built from train.*.

#include <torch/optim/optimizer.h>

#include <memory>
#include <vector>

#include "app/common/config.h"

namespace atento {

/// Adam, AdamW or RMSprop over `params` with train.lr, betas/rho, eps and weight_decay (none on
/// vectors, biases and normalisation parameters, unless train.decay_vectors). Its parameter
/// groups, joined, are `params` in their order.
std::unique_ptr<torch::optim::Optimizer> make_optimizer(const TrainOptions& t,
                                                        std::vector<torch::Tensor> params);

/// The weight decay of parameter `p`: none for a vector (dim < 2) unless train.decay_vectors.
double decay_of(const TrainOptions& t, const torch::Tensor& p);

/// Sets the learning rate of every parameter group.
void set_learning_rate(torch::optim::Optimizer& optimizer, double lr);

}  // namespace atento
