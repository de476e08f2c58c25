#include "app/train/validation_decision.h"

#include <cmath>

namespace atento {

bool is_better(BestMetric metric, double value, double best) {
  return std::isnan(best) || (metric == BestMetric::kAccuracy ? value > best : value < best);
}

ValidationDecision decide_validation(const TrainState& state, BestMetric metric, double value) {
  ValidationDecision decision;
  decision.state = state;
  decision.better = is_better(metric, value, state.best_value);
  decision.state.last_eval_step = state.step;
  if (decision.better) {
    decision.state.best_value = value;
    decision.state.best_step = state.step;
    decision.state.evals_since_best = 0;
  } else {
    decision.state.evals_since_best++;
  }
  return decision;
}

}  // namespace atento
