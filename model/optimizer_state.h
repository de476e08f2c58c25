#pragma once
// A parameter's entry in a LibTorch optimiser's state, whichever LibTorch: the state map is
// keyed by the parameter's TensorImpl address, as a string before LibTorch 2.0 and as the
// pointer itself since (Debian ships 1.13; the GPU machine's LibTorch is 2.x).

#include <torch/optim/optimizer.h>

#include <memory>

namespace atento::model {

/// The state `optimizer` keeps for `parameter`; null before its first step.
torch::optim::OptimizerParamState* find_optimizer_state(torch::optim::Optimizer& optimizer,
                                                        const torch::Tensor& parameter);

/// Files `state` as `parameter`'s (replacing any), returns it.
torch::optim::OptimizerParamState& put_optimizer_state(
    torch::optim::Optimizer& optimizer, const torch::Tensor& parameter,
    std::unique_ptr<torch::optim::OptimizerParamState> state);

}  // namespace atento::model
