#include "model/full_softmax.h"

#include "model/initialisation.h"
#include "model/projection.h"

namespace atento::model {

FullSoftmaxImpl::FullSoftmaxImpl(int64_t d_model, int64_t vocab) {
  // The tensors of glorot_linear: the same initialisation (and random draws) as a Linear layer,
  // with the parameters named weight and bias directly under this module.
  auto linear = glorot_linear(d_model, vocab);
  weight = register_parameter("weight", linear->weight);
  bias = register_parameter("bias", linear->bias);
}

torch::Tensor FullSoftmaxImpl::scores(const torch::Tensor& hidden) {
  return project(hidden, weight, bias, cache_.get());  // [..., D] → [..., V]
}

TiedSoftmaxImpl::TiedSoftmaxImpl(torch::nn::Embedding embedding_)
    : embedding(std::move(embedding_)) {
  TORCH_CHECK(!embedding.is_empty(), "TiedSoftmax: needs the target embedding");
  bias = register_parameter("bias", torch::zeros({embedding->weight.size(0)}));
}

torch::Tensor TiedSoftmaxImpl::scores(const torch::Tensor& hidden) {
  return project(hidden, embedding->weight, bias, cache_.get());  // [..., D] → [..., V]
}

}  // namespace atento::model
