#pragma once
// Weights and optimizer state on disk, written through the one durable writer
// (data::write_file_atomically): a crash or power loss leaves the old file or the new one.

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <string>

namespace atento {

/// Writes every parameter and buffer of `module` to `path` (model::serialize_weights' format).
void save_weights(const torch::nn::Module& module, const std::string& path);

/// Writes the optimizer state to `path` (model::serialize_optimizer's format).
void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path);

}  // namespace atento
