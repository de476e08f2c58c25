#include "app/model_dir/weights_file.h"

#include "app/model_dir/safetensors.h"
#include "data/text_io.h"
#include "model/checkpoint.h"

namespace atento {

namespace {

/// Files named *.safetensors hold that format; every other weights file is a pickle.
bool is_safetensors(const std::string& path) {
  const std::string suffix = ".safetensors";
  return path.size() >= suffix.size() &&
         path.compare(path.size() - suffix.size(), suffix.size(), suffix) == 0;
}

}  // namespace

void save_weights(const torch::nn::Module& module, const std::string& path) {
  save_weights(model::named_state(module), path);
}

void save_weights(const model::NamedTensors& weights, const std::string& path) {
  data::write_file_atomically(path, is_safetensors(path) ? serialize_safetensors(weights)
                                                         : model::serialize_weights(weights));
}

void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path) {
  data::write_file_atomically(path, model::serialize_optimizer(optimizer));
}

model::NamedTensors read_weights_file(const std::string& path) {
  return is_safetensors(path) ? read_safetensors(path) : model::read_weights(path);
}

void load_weights_file(torch::nn::Module& module, const std::string& path) {
  if (!is_safetensors(path)) return model::load_weights(module, path);
  model::assign_weights(module, read_safetensors(path), path);
}

void load_optimizer_file(torch::optim::Optimizer& optimizer, const std::string& path) {
  model::load_optimizer(optimizer, path);
}

}  // namespace atento
