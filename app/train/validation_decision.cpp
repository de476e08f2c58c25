#include "app/train/validation_decision.h"

#include <stdexcept>

namespace atento {

double judged_figure(BestMetric metric, const ValidationFigures& figures) {
  switch (metric) {
    case BestMetric::kAccuracy:
      return figures.accuracy;
    case BestMetric::kLoss:
      return figures.loss;
    case BestMetric::kBleu:
      if (std::isnan(figures.bleu)) {
        throw std::logic_error("train.best_metric is bleu but this validation computed no BLEU");
      }
      return figures.bleu;
  }
  throw std::logic_error("unknown train.best_metric");
}

bool is_better(BestMetric metric, double value, double best) {
  if (std::isnan(best)) return true;
  return metric == BestMetric::kLoss ? value < best : value > best;
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
