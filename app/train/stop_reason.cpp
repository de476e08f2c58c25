#include "app/train/stop_reason.h"

#include <algorithm>

namespace atento {

std::string stop_reason(const TrainOptions& t, const TrainState& state, double elapsed_s) {
  if (t.max_steps > 0 && state.step >= t.max_steps) return "max_steps";
  if (t.max_epochs > 0 && state.epoch >= t.max_epochs) return "max_epochs";
  if (t.time_budget_minutes > 0 && elapsed_s >= t.time_budget_minutes * 60.0) {
    return "time_budget";
  }
  if (t.patience > 0 && state.evals_since_best >= t.patience) return "early_stopping";
  return "";
}

double fraction_done(const TrainOptions& t, const TrainState& state, double elapsed_s,
                     int64_t batches_in_epoch) {
  double fraction = -1.0;
  if (t.max_steps > 0) fraction = std::max(fraction, double(state.step) / t.max_steps);
  if (t.time_budget_minutes > 0) {
    fraction = std::max(fraction, elapsed_s / (t.time_budget_minutes * 60.0));
  }
  if (t.max_epochs > 0 && batches_in_epoch > 0) {
    double epochs = state.epoch + double(state.batch_in_epoch) / batches_in_epoch;
    fraction = std::max(fraction, epochs / t.max_epochs);
  }
  return std::min(fraction, 1.0);
}

}  // namespace atento
