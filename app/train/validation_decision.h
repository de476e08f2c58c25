#pragma once
// What a validation result means for training: a new best or not, and the counters that
// early stopping reads.

#include "app/common/config.h"
#include "app/train/train_state.h"

namespace atento {

/// True when `value` beats `best` by `metric` (higher accuracy, lower loss); any value beats
/// a NaN `best` (no validation yet).
bool is_better(BestMetric metric, double value, double best);

/// The outcome of one validation.
struct ValidationDecision {
  bool better = false;  ///< a new best: model.pt and best.json are to be rewritten
  TrainState state;     ///< the state after this validation
};

/// Records a validation at `state.step` with figure `value`: last_eval_step moves to the
/// step; a better value becomes best_value/best_step and resets evals_since_best, any other
/// adds one to evals_since_best.
ValidationDecision decide_validation(const TrainState& state, BestMetric metric, double value);

}  // namespace atento
