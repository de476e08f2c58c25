#pragma once
// The learning-rate schedules of atento-train: a function of the step and, for the linear
// schedule under a time budget, of the training time spent so far.

#include <cstdint>

#include "app/common/config.h"

namespace atento {

/// Learning rate for optimiser step `step` (0-based), `elapsed_s` seconds of training into the
/// run (summed over resumes): linear warm-up over `warmup_steps`, then
/// - constant:     lr
/// - inverse_sqrt: lr·sqrt(warmup/(step+1)) (Vaswani et al. 2017, §5.3)
/// - linear:       a straight line down to 0 at the end of the budget, so the whole budget is
///                 spent on one decay: at `max_steps` (from the warm-up's peak), and with a
///                 time budget at `time_budget_minutes` (lr·(1 − elapsed/budget), the warm-up
///                 capped by that line); with both, the lower of the two. A time-budgeted decay
///                 follows the clock, so a resumed run is close to, not bit-identical with, an
///                 uninterrupted one. Needs max_steps > warmup_steps or time_budget_minutes > 0.
double learning_rate(const TrainOptions& t, int64_t step, double elapsed_s);

}  // namespace atento
