#include "app/train/schedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace atento {
namespace {

/// The share of the linear schedule's peak left at `step`: the step line and the clock line.
double linear_left(const TrainOptions& t, double s, double warm, double elapsed_s) {
  if (t.max_steps <= t.warmup_steps && t.time_budget_minutes <= 0) {
    throw std::logic_error("the linear schedule needs max_steps > warmup_steps or a time budget");
  }
  double left = 1.0;
  if (t.max_steps > t.warmup_steps && s >= warm) {
    // From the peak at the end of warm-up to 0 after the last step (max_steps - 1 is the last
    // one); span >= 1. (A run with max_steps <= warmup_steps ends inside the warm-up.)
    double end = static_cast<double>(t.max_steps) + 1.0;
    left = std::min(left, (end - s) / (end - std::max(warm, 1.0)));
  }
  if (t.time_budget_minutes > 0) {
    left = std::min(left, 1.0 - elapsed_s / (t.time_budget_minutes * 60.0));
  }
  return std::max(0.0, left);
}

}  // namespace

double learning_rate(const TrainOptions& t, int64_t step, double elapsed_s) {
  double s = static_cast<double>(step + 1);
  double warm = static_cast<double>(t.warmup_steps);
  double ramp = t.warmup_steps > 0 && s < warm ? s / warm : 1.0;
  switch (t.schedule) {
    case LrSchedule::kConstant:
      return t.lr * ramp;
    case LrSchedule::kInverseSqrt:
      return ramp < 1.0 || t.warmup_steps == 0 ? t.lr * ramp : t.lr * std::sqrt(warm / s);
    case LrSchedule::kLinear:
      return t.lr * std::min(ramp, linear_left(t, s, warm, elapsed_s));
  }
  throw std::logic_error("unknown learning-rate schedule");
}

}  // namespace atento
