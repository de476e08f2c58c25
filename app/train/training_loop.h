#pragma once
// The one training loop of atento-train, shared by the translation trainer (trainer.h) and the
// pair filter's (app/filter/filter_trainer.h): stop reasons and signals, epoch rollover,
// validate → decide → save the best → checkpoint (keeping the newest train.keep_checkpoints),
// and the log events every run writes (valid, interrupted, end). A run supplies its batches,
// its step, its validation figures and the modules it saves, through the hooks below.

#include <torch/nn/module.h>
#include <torch/optim/optimizer.h>

#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "app/common/config.h"
#include "app/common/stopwatch.h"
#include "app/train/train_state.h"
#include "app/train/validation_decision.h"

namespace atento {

class JsonlLog;
class ProgressDisplay;
class StopSignals;

/// What a checkpoint saves of a run.
struct CheckpointParts {
  const torch::nn::Module* model = nullptr;
  const torch::optim::Optimizer* optimizer = nullptr;
  const torch::nn::Module* average = nullptr;  ///< the weight average; null = none
};

class TrainingLoop {
 public:
  virtual ~TrainingLoop();
  TrainingLoop(const TrainingLoop&) = delete;
  TrainingLoop& operator=(const TrainingLoop&) = delete;

 protected:
  TrainingLoop(Config config, std::string dir);

  /// Starts the training clock (state_.elapsed_s carries the time of earlier runs).
  void start_clock();
  /// Training time over all runs, in seconds.
  double elapsed() const;
  /// Trains from state_ until a stop reason (stop_reason.h) or SIGINT/SIGTERM: 0 after the
  /// last validation, or 128 + the signal after a checkpoint. start_epoch() must have built
  /// the current epoch's batches.
  int run_loop();
  /// Validates, keeps the best weights and best.json when better, writes a checkpoint, then logs
  /// the figures with the seconds spent judging (evaluate_s) and writing (save_s). A run's
  /// train_step calls it every train.eval_every_steps; the loop at each epoch's end and last.
  void validate_now();

  // --- what a run supplies ---
  /// Batches in the current epoch.
  virtual int64_t batches_in_epoch() const = 0;
  /// Builds the batches of epoch state_.epoch.
  virtual void start_epoch() = 0;
  /// One optimiser step on the next batches; advances state_ (step, batch_in_epoch, counters).
  virtual void train_step() = 0;
  /// The validation figures of the model as it is; throws when they are not finite.
  virtual ValidationFigures evaluate_validation() = 0;
  /// What a checkpoint saves.
  virtual CheckpointParts checkpoint_parts() const = 0;
  /// What the best weights keep when a validation is the best so far.
  virtual const torch::nn::Module& best_model() const = 0;
  /// "model" or "filter", in messages.
  virtual const char* noun() const = 0;
  /// Why to stop now ("" = go on) and the signal received (0 = none); by default this
  /// process's own view.
  virtual std::pair<std::string, int> agreed_stop(const StopSignals& signals);
  /// Called before anything is written to the directory (a run checks its losses here).
  virtual void before_checkpoint() {}
  /// Whether this process writes the model directory (rank 0 of a group).
  virtual bool writes_directory() const { return true; }

  Config config_;
  std::string dir_;
  TrainState state_;
  std::unique_ptr<JsonlLog> log_;  ///< null where this process writes no log
  std::unique_ptr<ProgressDisplay> display_;

 private:
  void next_epoch();
  /// Writes the best weights and best.json (a validation better than any before).
  void save_best(const ValidationFigures& figures);
  void save_checkpoint();
  int interrupt(int signal);
  int finish(const std::string& reason);

  Stopwatch clock_;              ///< since this run started
  double elapsed_before_ = 0.0;  ///< state_.elapsed_s when this run started
};

}  // namespace atento
