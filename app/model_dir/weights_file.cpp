#include "app/model_dir/weights_file.h"

#include "data/text_io.h"
#include "model/checkpoint.h"

namespace atento {

void save_weights(const torch::nn::Module& module, const std::string& path) {
  data::write_file_atomically(path, model::serialize_weights(module));
}

void save_weights(const model::NamedTensors& weights, const std::string& path) {
  data::write_file_atomically(path, model::serialize_weights(weights));
}

void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path) {
  data::write_file_atomically(path, model::serialize_optimizer(optimizer));
}

model::NamedTensors read_weights_file(const std::string& path) { return model::read_weights(path); }

void load_weights_file(torch::nn::Module& module, const std::string& path) {
  model::load_weights(module, path);
}

void load_optimizer_file(torch::optim::Optimizer& optimizer, const std::string& path) {
  model::load_optimizer(optimizer, path);
}

}  // namespace atento
