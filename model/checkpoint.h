#pragma once
// Checkpoint serialisation. Weights are a pickled {name: tensor} dictionary (torch::pickle_save,
// the format Python's torch.load also reads), matched to the model by parameter name and shape.
// This file turns weights and optimizer state into bytes and reads them back; writing the bytes
// to disk is the application's job (one atomic, durable writer for every file).

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <map>
#include <string>

namespace atento::model {

/// Parameter and buffer tensors by dotted name, as read from a weights file (on the CPU).
using NamedTensors = std::map<std::string, torch::Tensor>;

/// A tensor's shape as error messages name it: "[3, 4]".
std::string shape_string(const torch::Tensor& tensor);

/// Every parameter and buffer of `module` by its dotted name (the tensors themselves).
NamedTensors named_state(const torch::nn::Module& module);

/// Every parameter and buffer of `module` (moved to CPU) as the bytes of a weights file.
std::string serialize_weights(const torch::nn::Module& module);

/// Named tensors (moved to CPU) as the bytes of a weights file: serialize_weights' format.
std::string serialize_weights(const NamedTensors& weights);

/// Reads a weights file holding serialize_weights' bytes; throws std::runtime_error naming the file
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

/// The optimizer state (per parameter: step count and moments; Adam, AdamW and RMSprop) as the
/// bytes of a file in the weights format: a pickled {"<kind>.p<i>.<field>": tensor} dictionary
/// (model/optimizer_state.cpp). Hyper-parameters are not kept: they come from the configuration.
std::string serialize_optimizer(const torch::optim::Optimizer& optimizer);

/// Restores optimizer state from a file holding serialize_optimizer's bytes, read like weights
/// (no TorchScript: LibTorch's own archive loader compiles code from the file, and crashed on
/// a corrupted one); throws std::runtime_error naming the file when it cannot be read, was
/// written for another optimizer kind or another set of parameter shapes.
void load_optimizer(torch::optim::Optimizer& optimizer, const std::string& path);

}  // namespace atento::model
