// libFuzzer target: the weights and optimizer-state readers (model.pt, optimizer.pt of an
// untrusted model directory). Any bytes are a weights file and an optimizer file; reading may
// only throw std::runtime_error, and weights read are named, sized and typed as a model's.
// LibTorch itself is not instrumented; ASan sees the project's code and the heap.
#include <torch/torch.h>

#include <cstdint>
#include <cstdlib>
#include <fstream>
#include <stdexcept>
#include <string>

#include "model/checkpoint.h"
#include "tests/fuzz/fuzz_util.h"

namespace {

struct Tiny {
  torch::nn::Linear model{4, 3};
  torch::optim::Adam optimizer{model->parameters(), torch::optim::AdamOptions(0.01)};
};

void write_seed(const std::string& dir, const std::string& name, const std::string& bytes) {
  std::ofstream(dir + "/" + name, std::ios::binary) << bytes;
}

}  // namespace

/// ATENTO_FUZZ_WRITE_SEEDS=DIR: writes this target's seeds (weights and optimizer state of a
/// tiny model, and weights of another shape) into DIR and exits; scripts/fuzz.sh --seeds.
extern "C" int LLVMFuzzerInitialize(int*, char***) {
  const char* dir = std::getenv("ATENTO_FUZZ_WRITE_SEEDS");
  if (dir == nullptr) return 0;
  torch::manual_seed(1);
  Tiny tiny;
  tiny.optimizer.zero_grad();
  tiny.model->forward(torch::ones({2, 4})).sum().backward();
  tiny.optimizer.step();
  write_seed(dir, "tiny_weights", atento::model::serialize_weights(*tiny.model));
  write_seed(dir, "tiny_adam_state", atento::model::serialize_optimizer(tiny.optimizer));
  write_seed(dir, "other_shape_weights",
             atento::model::serialize_weights(*torch::nn::Linear(2, 2)));
  std::exit(0);
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  static Tiny tiny;
  const std::string weights = fuzz::write_scratch("model.pt", data, size);
  try {
    const model::NamedTensors stored = model::read_weights(weights);
    for (const auto& [name, tensor] : stored) {
      if (name.empty() || !tensor.defined()) std::abort();
      tensor.sum();  // every byte of every tensor is readable
    }
    model::assign_weights(*tiny.model, stored, weights);
  } catch (const std::runtime_error&) {
  }
  try {
    model::load_optimizer(tiny.optimizer, weights);
  } catch (const std::runtime_error&) {
  }
  return 0;
}
