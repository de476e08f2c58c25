#pragma once
// Checkpoint I/O. Weights are a pickled {name: tensor} dictionary (torch::pickle_save, the
// format Python's torch.load also reads), matched to the model by parameter name and shape.
// Every write goes to a temporary file next to the target and is renamed over it, so a crash
// never leaves a truncated checkpoint.

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <map>
#include <string>

namespace atento::model {

/// Writes every parameter and buffer of `module` (moved to CPU) to `path`, atomically.
void save_weights(const torch::nn::Module& module, const std::string& path);

/// Parameter and buffer tensors by dotted name, as read from a weights file (on the CPU).
using NamedTensors = std::map<std::string, torch::Tensor>;

/// Reads a weights file written by save_weights; throws std::runtime_error naming the file
/// when it cannot be read or parsed. The file's bytes are released before it returns.
NamedTensors read_weights(const std::string& path);

/// Puts `stored` (read from `path`) into `module`, checked like load_weights. Parameters
/// adopt the stored tensors' memory where dtype and device match instead of copying, so
/// reading the weights before building the model keeps one copy of them resident.
void assign_weights(torch::nn::Module& module, NamedTensors stored, const std::string& path);

/// Loads `path` into `module` (on whatever device it lives). Checks every name and shape
/// first and throws std::runtime_error naming the file, the parameter and both shapes when
/// the checkpoint was written for another architecture or vocabulary; nothing is copied then.
void load_weights(torch::nn::Module& module, const std::string& path);

/// Writes the optimizer state (moments, step counts, hyper-parameters) atomically.
void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path);

/// Restores optimizer state written by save_optimizer; throws std::runtime_error naming the
/// file when it cannot be read or does not match the optimizer.
void load_optimizer(torch::optim::Optimizer& optimizer, const std::string& path);

}  // namespace atento::model
