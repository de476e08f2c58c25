#pragma once
// Weights and optimizer state on disk: the application's one reader and writer of them. Writes
// go through the one durable writer (data::write_file_atomically): a crash or power loss leaves
// the old file or the new one. The format (bytes <-> tensors) is model/checkpoint.h's pickle,
// or safetensors (app/model_dir/safetensors.h) for a path ending in ".safetensors".

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <string>

#include "model/checkpoint.h"

namespace atento {

/// Writes every parameter and buffer of `module` to `path` (safetensors for a path ending in
/// ".safetensors", else model::serialize_weights' pickle).
void save_weights(const torch::nn::Module& module, const std::string& path);

/// Writes named tensors to `path`, in the format its name says (as above).
void save_weights(const model::NamedTensors& weights, const std::string& path);

/// Writes the optimizer state to `path` (model::serialize_optimizer's format).
void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path);

/// The named tensors of the weights file `path`; throws naming the file.
model::NamedTensors read_weights_file(const std::string& path);

/// Loads the weights file `path` into `module`, every name and shape checked first (errors name
/// the file and the parameter).
void load_weights_file(torch::nn::Module& module, const std::string& path);

/// Restores the optimizer state file `path` into `optimizer`; throws naming the file.
void load_optimizer_file(torch::optim::Optimizer& optimizer, const std::string& path);

}  // namespace atento
