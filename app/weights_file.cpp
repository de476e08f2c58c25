#include "app/weights_file.h"

#include "data/text_io.h"
#include "model/checkpoint.h"

namespace atento {

void save_weights(const torch::nn::Module& module, const std::string& path) {
  data::write_file_atomically(path, model::serialize_weights(module));
}

void save_optimizer(const torch::optim::Optimizer& optimizer, const std::string& path) {
  data::write_file_atomically(path, model::serialize_optimizer(optimizer));
}

}  // namespace atento
