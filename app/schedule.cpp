#include "app/schedule.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace atento {

double learning_rate(const TrainOptions& t, int64_t step) {
  double s = static_cast<double>(step + 1);
  double warm = static_cast<double>(t.warmup_steps);
  if (t.warmup_steps > 0 && s < warm) return t.lr * s / warm;
  switch (t.schedule) {
    case LrSchedule::kConstant:
      return t.lr;
    case LrSchedule::kInverseSqrt:
      return t.warmup_steps > 0 ? t.lr * std::sqrt(warm / s) : t.lr;
    case LrSchedule::kLinear: {
      if (t.max_steps <= 0) throw std::logic_error("the linear schedule needs max_steps > 0");
      // From lr at the end of warm-up to 0 after the last step (max_steps - 1 is the last one);
      // validate() makes max_steps > warmup_steps, so span >= 1.
      double end = static_cast<double>(t.max_steps) + 1.0;
      double span = end - std::max(warm, 1.0);
      return t.lr * std::max(0.0, (end - s) / span);
    }
  }
  throw std::logic_error("unknown learning-rate schedule");
}

}  // namespace atento
