#pragma once
// How a new module fills its parameters: the random initialisation that training starts from,
// or nothing at all for a model whose every parameter is about to be read from a file
// (assign_weights refuses a file that lacks one). Drawing the initial values of a base-sized
// model costs more than a tenth of a second at every start of a translating program.

#include <torch/nn/modules/embedding.h>
#include <torch/nn/modules/linear.h>

#include <cstdint>

namespace atento::model {

/// While one lives, the layers that glorot_linear and normal_embedding build on this thread
/// hold uninitialised parameters of the right shapes (torch::empty) and draw no random
/// numbers: for building a model whose weights are then loaded.
class SkipInitialisation {
 public:
  SkipInitialisation();
  ~SkipInitialisation();
  SkipInitialisation(const SkipInitialisation&) = delete;
  SkipInitialisation& operator=(const SkipInitialisation&) = delete;

 private:
  bool previous_;
};

/// True while a SkipInitialisation lives on this thread.
bool initialisation_skipped();

/// A Linear layer in → out initialised like Keras' Dense: Glorot-uniform kernel, zero bias
/// (drawn after LibTorch's own initialisation of the layer, so the random stream is that of a
/// plain torch::nn::Linear followed by xavier_uniform_).
torch::nn::Linear glorot_linear(int64_t in, int64_t out, bool bias = true);

/// An embedding table of `count` rows of `dim` values drawn from N(0, std²) (after LibTorch's
/// own N(0, 1) draw, as above).
torch::nn::Embedding normal_embedding(int64_t count, int64_t dim, double std);

}  // namespace atento::model
