#pragma once
// The checkpoints of a model directory, laid out as
//   checkpoints/latest                      "step-N\n": the newest complete checkpoint
//   checkpoints/step-N/model.pt             the trained weights
//   checkpoints/step-N/optimizer.pt         the optimiser state
//   checkpoints/step-N/average.pt           the weight average (train.ema_decay > 0 only)
//   checkpoints/step-N/state.json           the TrainState
// A checkpoint is written completely (state.json last) before `latest` moves to it, and only then
// are older ones removed, so a crash at any moment leaves a loadable checkpoint.

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "app/model_dir/checkpoint_pointer.h"
#include "app/train/train_state.h"

namespace atento {

/// Writes `checkpoints/step-<state.step>/` in `model_dir` (`average` may be null), moves
/// `latest` to it, then removes every checkpoint but it and the `keep` − 1 newest complete ones
/// before it (train.keep_checkpoints; checkpoint averaging reads them).
void write_checkpoint(const std::string& model_dir, const TrainState& state,
                      const torch::nn::Module& model, const torch::optim::Optimizer& optimizer,
                      const torch::nn::Module* average, int64_t keep = 1);

/// The complete checkpoint directories (holding state.json and model.pt) of `model_dir`, oldest
/// step first; empty when there are none.
std::vector<std::string> complete_checkpoints(const std::string& model_dir);

/// What load_latest_checkpoint found.
struct LoadedCheckpoint {
  std::string dir;  ///< the checkpoint's directory
  TrainState state;
  /// An average was asked for but the checkpoint keeps none (averaging switched on later):
  /// `average` was left untouched.
  bool average_missing = false;
};

/// Loads the latest checkpoint into `model`, `optimizer` and (when not null) `average`;
/// nullopt when none was written. Errors name the file at fault.
std::optional<LoadedCheckpoint> load_latest_checkpoint(const std::string& model_dir,
                                                       torch::nn::Module& model,
                                                       torch::optim::Optimizer& optimizer,
                                                       torch::nn::Module* average);

}  // namespace atento
