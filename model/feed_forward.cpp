#include "model/feed_forward.h"

#include "model/initialisation.h"
#include "model/projection.h"

namespace atento::model {

FeedForwardImpl::FeedForwardImpl(const FeedForwardOptions& options) {
  TORCH_CHECK(options.d_model() > 0 && options.d_ff() > 0,
              "FeedForward: d_model and d_ff must be positive");
  linear1 = register_module("linear1", glorot_linear(options.d_model(), options.d_ff()));
  linear2 = register_module("linear2", glorot_linear(options.d_ff(), options.d_model()));
}

torch::Tensor FeedForwardImpl::forward(const torch::Tensor& x) {
  // [..., D] → [..., d_ff] → [..., D]; ReLU in place on the fresh projection.
  return dense(dense(x, linear1, linear1_cache_.get()).relu_(), linear2, linear2_cache_.get());
}

}  // namespace atento::model
