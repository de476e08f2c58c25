#include "model/initialisation.h"

#include <torch/nn/init.h>
#include <torch/utils.h>

namespace atento::model {
namespace {

thread_local bool skip_initialisation = false;

}  // namespace

SkipInitialisation::SkipInitialisation() : previous_(skip_initialisation) {
  skip_initialisation = true;
}

SkipInitialisation::~SkipInitialisation() { skip_initialisation = previous_; }

bool initialisation_skipped() { return skip_initialisation; }

torch::nn::Linear glorot_linear(int64_t in, int64_t out, bool bias) {
  const auto options = torch::nn::LinearOptions(in, out).bias(bias);
  if (!skip_initialisation) {
    torch::nn::Linear linear(options);
    torch::nn::init::xavier_uniform_(linear->weight);
    if (bias) torch::nn::init::zeros_(linear->bias);
    return linear;
  }
  // Built with no output channels, LibTorch's initialisation draws nothing; then the real shapes.
  torch::nn::Linear linear(torch::nn::LinearOptions(1, 0).bias(bias));
  linear->options = options;
  torch::NoGradGuard no_grad;
  linear->weight.set_data(torch::empty({out, in}));
  if (bias) linear->bias.set_data(torch::empty({out}));
  return linear;
}

torch::nn::Embedding normal_embedding(int64_t count, int64_t dim, double std) {
  const auto options = torch::nn::EmbeddingOptions(count, dim);
  if (!skip_initialisation) {
    torch::nn::Embedding embedding(options);
    torch::nn::init::normal_(embedding->weight, 0.0, std);
    return embedding;
  }
  torch::nn::Embedding embedding(torch::nn::EmbeddingOptions(0, dim));  // draws nothing
  embedding->options = options;
  torch::NoGradGuard no_grad;
  embedding->weight.set_data(torch::empty({count, dim}));
  return embedding;
}

}  // namespace atento::model
