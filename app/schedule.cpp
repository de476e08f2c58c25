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
      // From lr at the end of warm-up to 0 after the last step (max_steps - 1 is the last one).
      double start = std::max(warm, 1.0);
      double span = static_cast<double>(t.max_steps) + 1.0 - start;
      return span > 0 ? t.lr * std::clamp((t.max_steps + 1.0 - s) / span, 0.0, 1.0) : 0.0;
    }
  }
  throw std::logic_error("unknown learning-rate schedule");
}

}  // namespace atento
