#pragma once
// The learning-rate schedules of atento-train: a pure function of the step, so a resumed run
// continues on exactly the same curve.

#include <cstdint>

#include "app/config.h"

namespace atento {

/// Learning rate for optimiser step `step` (0-based): linear warm-up over `warmup_steps`, then
/// - constant:     lr
/// - inverse_sqrt: lr·sqrt(warmup/(step+1)) (Vaswani et al. 2017, §5.3)
/// - linear:       a straight line from lr down to 0 at `max_steps` (the whole budget is
///                 spent on one decay; needs max_steps > 0).
double learning_rate(const TrainOptions& t, int64_t step);

}  // namespace atento
