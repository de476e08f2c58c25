#pragma once
// When training stops (train.max_steps, max_epochs, time_budget_minutes, patience), and how
// far it has come toward the nearest of those limits.

#include <cstdint>
#include <string>

#include "app/common/config.h"
#include "app/train/train_state.h"

namespace atento {

/// Why training must stop now, after `elapsed_s` seconds of training over all runs:
/// "max_steps", "max_epochs", "time_budget" or "early_stopping" (checked in that order), or
/// "" to go on.
std::string stop_reason(const TrainOptions& t, const TrainState& state, double elapsed_s);

/// The fraction of the run done, in [0, 1], by whichever limit is nearest (`batches_in_epoch`
/// batches make the current epoch); negative when no step, time or epoch limit is set.
double fraction_done(const TrainOptions& t, const TrainState& state, double elapsed_s,
                     int64_t batches_in_epoch);

}  // namespace atento
