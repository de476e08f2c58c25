#pragma once
// What a validation result means for training: the figure judged, a new best or not, and the
// counters that early stopping reads.

#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "app/common/config.h"
#include "app/train/train_state.h"

namespace atento {

/// One validation's figures, as a run computes them.
struct ValidationFigures {
  double loss = 0.0;      ///< judged when train.best_metric is loss
  double accuracy = 0.0;  ///< judged when train.best_metric is next_word_accuracy
  double bleu = NAN;      ///< greedy BLEU, judged when it is bleu; NaN = not computed
  /// The figures by name, as log.jsonl's "valid" event and best.json hold them.
  nlohmann::json fields = nlohmann::json::object();
  /// The figures as the display shows them between "valid | step N | " and " (best) | time".
  std::string line;
};

/// The figure of `figures` that `metric` judges; throws std::logic_error for bleu when the
/// run computed none (validate() makes train.bleu_sentences positive with it).
double judged_figure(BestMetric metric, const ValidationFigures& figures);

/// True when `value` beats `best` by `metric` (higher accuracy or BLEU, lower loss); any value
/// beats a NaN `best` (no validation yet).
bool is_better(BestMetric metric, double value, double best);

/// The outcome of one validation.
struct ValidationDecision {
  bool better = false;  ///< a new best: the best weights and best.json are to be rewritten
  TrainState state;     ///< the state after this validation
};

/// Records a validation at `state.step` with figure `value`: last_eval_step moves to the
/// step; a better value becomes best_value/best_step and resets evals_since_best, any other
/// adds one to evals_since_best.
ValidationDecision decide_validation(const TrainState& state, BestMetric metric, double value);

}  // namespace atento
