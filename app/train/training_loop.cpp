#include "app/train/training_loop.h"

#include <cstdio>

#include "app/common/event_log.h"
#include "app/common/files.h"
#include "app/common/progress.h"
#include "app/common/runtime.h"
#include "app/common/stop_signals.h"
#include "app/model_dir/model_files.h"
#include "app/model_dir/weights_file.h"
#include "app/train/checkpoint_dir.h"
#include "app/train/stop_reason.h"
#include "app/train/validation_decision.h"
#include "data/text_io.h"

namespace atento {

TrainingLoop::TrainingLoop(Config config, std::string dir)
    : config_(std::move(config)), dir_(std::move(dir)) {}

TrainingLoop::~TrainingLoop() = default;

void TrainingLoop::start_clock() {
  clock_.restart();
  elapsed_before_ = state_.elapsed_s;
}

double TrainingLoop::elapsed() const { return elapsed_before_ + clock_.seconds(); }

int TrainingLoop::run_loop() {
  StopSignals signals;
  while (true) {
    auto [reason, signal] = agreed_stop(signals);
    if (!reason.empty()) return finish(reason);
    if (signal != 0) return interrupt(signal);
    if (state_.batch_in_epoch >= batches_in_epoch()) {
      next_epoch();
      continue;
    }
    train_step();
  }
}

std::pair<std::string, int> TrainingLoop::agreed_stop(const StopSignals& signals) {
  std::string reason = stop_reason(config_.train, state_, elapsed());
  return {reason, reason.empty() ? signals.received() : 0};
}

void TrainingLoop::next_epoch() {
  state_.elapsed_s = elapsed();
  if (state_.last_eval_step != state_.step) validate_now();
  state_.epoch++;
  state_.batch_in_epoch = 0;
  start_epoch();
}

void TrainingLoop::validate_now() {
  before_checkpoint();  // diverged weights never reach a checkpoint
  Stopwatch watch;
  const ValidationFigures figures = evaluate_validation();
  const double evaluate_s = watch.seconds();
  watch.restart();
  const auto metric = config_.train.best_metric;
  auto decision = decide_validation(state_, metric, judged_figure(metric, figures));
  state_ = decision.state;
  display_->message("valid | step " + std::to_string(state_.step) + " | " + figures.line +
                    (decision.better ? " (best)" : "") + " | " + format_duration(state_.elapsed_s));
  if (decision.better && writes_directory()) save_best(figures);
  save_checkpoint();
  if (!log_) return;
  // The seconds of this validation, which the time budget counts: judging, then writing.
  nlohmann::json event = figures.fields;
  event.update({{"event", "valid"},
                {"step", state_.step},
                {"epoch", state_.epoch},
                {"elapsed_s", state_.elapsed_s},
                {"best", decision.better},
                {"evaluate_s", evaluate_s},
                {"save_s", watch.seconds()}});
  log_->write(event);
}

void TrainingLoop::save_best(const ValidationFigures& figures) {
  save_weights(best_model(), join_path(dir_, model_files::kBestWeights));
  // A directory from before the safetensors layout: its model.pt is now stale (the loaders
  // prefer model.safetensors, so a crash before this removal changes nothing).
  std::remove(join_path(dir_, model_files::kLegacyBestWeights).c_str());
  nlohmann::json info = figures.fields;
  info["step"] = state_.step;
  data::write_file_atomically(join_path(dir_, model_files::kBestInfo), info.dump(2) + "\n");
}

void TrainingLoop::save_checkpoint() {
  if (!writes_directory()) return;
  const CheckpointParts parts = checkpoint_parts();
  write_checkpoint(dir_, state_, *parts.model, *parts.optimizer, parts.average,
                   config_.train.keep_checkpoints);
}

int TrainingLoop::interrupt(int signal) {
  state_.elapsed_s = elapsed();
  before_checkpoint();
  save_checkpoint();
  if (log_) log_->write({{"event", "interrupted"}, {"step", state_.step}, {"signal", signal}});
  display_->message("interrupted: checkpoint saved at step " + std::to_string(state_.step) +
                    " in " + dir_ + " (re-run the same command to resume)");
  return 128 + signal;
}

int TrainingLoop::finish(const std::string& reason) {
  state_.elapsed_s = elapsed();
  if (state_.last_eval_step != state_.step) validate_now();
  if (log_)
    log_->write({{"event", "end"},
                 {"step", state_.step},
                 {"epoch", state_.epoch},
                 {"elapsed_s", state_.elapsed_s},
                 {"reason", reason},
                 {"best_step", state_.best_step},
                 {"best_value", number_or_null(state_.best_value)}});
  display_->message("done (" + reason + ") after " + std::to_string(state_.step) + " steps; best " +
                    noun() + " (step " + std::to_string(state_.best_step) + ") in " +
                    join_path(dir_, model_files::kBestWeights));
  return kExitOk;
}

}  // namespace atento
