#pragma once
// The optimiser step with no host value in it, for CUDA graphs: the learning rate and the step
// count live in device tensors, so a captured step replays with the values of the moment
// (PyTorch's `capturable=True`). The arithmetic is torch::optim::Adam's, AdamW's or RMSprop's,
// on the optimiser's own state, so checkpoints and resumes do not know which step ran.

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <vector>

#include "app/common/config.h"

namespace atento {

class CapturableOptimizerStep {
 public:
  /// Steps the parameters of `optimizer` (built by make_optimizer from `t`, on `device`),
  /// creating the state of parameters that have none (zeros, as the optimiser's first step).
  CapturableOptimizerStep(torch::optim::Optimizer& optimizer, const TrainOptions& t,
                          const torch::Device& device);

  /// The learning rate of the next queue_step() (a device write; nothing waits).
  void set_learning_rate(double lr);
  /// Queues one optimiser step on the gradients, every value read on the device (capturable).
  /// Every parameter must have a gradient.
  void queue_step();
  /// Advances the step counts the optimiser's state keeps on the host (checkpoints save them);
  /// call once per step queued or replayed.
  void count_step();

 private:
  void queue_adam(const torch::Tensor& step_size, const torch::Tensor& bias2_root);
  void queue_rmsprop();

  torch::optim::Optimizer& optimizer_;
  TrainOptions options_;
  std::vector<torch::Tensor> params_;
  std::vector<torch::optim::OptimizerParamState*> states_;  ///< one per parameter
  std::vector<double> decays_;                              ///< one per parameter: its weight decay
  torch::Tensor lr_;                                        ///< [] double on the device
  torch::Tensor step_;  ///< [] double on the device: the step count after the last step
};

}  // namespace atento
