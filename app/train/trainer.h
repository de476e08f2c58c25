#pragma once
// The training job behind atento-train: one Trainer per run over a model directory. Its parts live
// beside it: train_state.h (the counters a checkpoint carries), checkpoint_dir.h,
// validation_decision.h, stop_reason.h, stop_signals.h, split_files.h and optimizer.h.

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "app/common/config.h"
#include "app/common/directory_lock.h"
#include "app/distributed/process_group.h"
#include "app/distributed/rank_environment.h"
#include "app/scoring/teacher_forcing.h"
#include "app/train/train_state.h"
#include "app/train/training_loop.h"
#include "app/train/validation_bleu.h"
#include "data/batch.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "model/seq2seq.h"

namespace atento {

class CapturableOptimizerStep;
class GradientReducer;
class StepGraphs;
class StopSignals;
struct StepBuffers;

/// Command line of atento-train.
struct TrainArgs {
  std::string config;                  ///< JSON configuration file
  std::vector<std::string> overrides;  ///< --set section.key=value, in order
  std::string out = "runs/model";      ///< model directory; an existing one is resumed
  std::string device;                  ///< --device; empty = train.device of the config
  int64_t nproc = 1;                   ///< --nproc: local ranks to start (1 = this process)
};

/// What every training run opens before it trains: the resolved configuration (file, --set,
/// --device), this process's place in its group, the model directory (created and locked by
/// rank 0 for the whole run) and the configuration that directory was made with, if any.
struct TrainingJob {
  Config config;
  std::string dir;
  RankEnvironment env;
  std::optional<DirectoryLock> lock;
  std::optional<Config> saved;
};

/// Opens the job `args` asks for; throws ConfigError naming the key or file at fault.
TrainingJob open_training_job(const TrainArgs& args);

/// Reads and splits the corpus, trains or reuses the tokenizers, trains, validates and keeps
/// the best checkpoint in `job.dir`. Returns the exit code (130/143 after SIGINT/SIGTERM,
/// with a checkpoint saved). A job with filter.pretrained set is the pair filter's
/// (app/filter/filter_trainer.h), not this one's.
int run_translation_training(TrainingJob& job);

/// One training run over a model directory: a fresh start, or a resume from its latest checkpoint
/// (bit-identical to an uninterrupted run with the same threads).
///
/// As one rank of a data-parallel group (`env.world_size` > 1) it computes exactly what one
/// process computes with the same global batch: every rank builds the same batches, runs its
/// contiguous shard of each, divides its loss sum by the global batch's target tokens, and
/// the summed gradients drive identical optimiser steps. Rank 0 alone writes the directory.
class Trainer : public TrainingLoop {
 public:
  /// `config` as checked against the directory's saved config.json (see run_training).
  Trainer(Config config, std::string dir, RankEnvironment env = {});
  ~Trainer();
  /// Trains until a stop reason (stop_reason.h) or SIGINT/SIGTERM; returns the exit code.
  int run();

 private:
  // --- setup, in this order (it fixes the random state) ---
  int64_t set_up();  ///< returns the number of threads
  void join_group();
  void prepare_data();
  void build_model();
  bool load_checkpoint();
  void announce(bool resumed, int64_t threads);
  void start_clock_and_batches();
  /// With train.cuda_graphs: the fixed-shape steps (step_graphs.h), or a message why not.
  void set_up_step_graphs();
  /// With tokenizer.sample_alpha: this epoch's sampled segmentation of the training pairs into
  /// train_, the same on every rank and after a resume (seeded by train.seed and the epoch).
  void segment_epoch();
  // --- the loop's hooks (training_loop.h) ---
  int64_t batches_in_epoch() const override;
  void start_epoch() override;
  /// Why to stop now ("" = go on) and the signal received (0 = none), the same on every rank;
  /// sets clock_s_ to the training time every rank agrees on (the largest rank's clock).
  std::pair<std::string, int> agreed_stop(const StopSignals& signals) override;
  void train_step() override;
  ValidationFigures evaluate_validation() override;
  CheckpointParts checkpoint_parts() const override;
  const torch::nn::Module& best_model() const override { return average_ ? *average_ : *model_; }
  const char* noun() const override { return "model"; }
  void before_checkpoint() override { check_losses_finite(); }
  bool writes_directory() const override { return group_.is_main(); }
  // --- the steps ---
  /// One step as LibTorch's optimiser runs it; returns the step's loss ([] double, device).
  torch::Tensor eager_step(int64_t& step_tokens);
  /// One step through graphs_ (train.cuda_graphs); returns the step's loss.
  torch::Tensor graphed_step(int64_t& step_tokens);
  /// What a graph captures: forward, backward, clipping and the update on `buffers`.
  void static_step(StepBuffers& buffers);
  /// Throws (CPU) or queues the check (CUDA) of a step's loss being finite.
  void check_step_loss(const torch::Tensor& step_loss);
  /// Forward and backward over this rank's shards of the step's `accumulate` batches, their
  /// sums added to `totals`, the global batches' target tokens added to `tokens`; returns this
  /// rank's part of the step's loss ([] double, on the device).
  torch::Tensor accumulate_gradients(DeviceTotals& totals, int64_t& tokens);
  /// Sums gradients and the step loss over the group (no-op in one process); the reducer has
  /// already started the buckets that backward completed.
  void synchronise(torch::Tensor& step_loss);
  void report_step(double now, const torch::Tensor& step_loss);
  /// Throws the non-finite loss error for the steps first_step..last_step.
  [[noreturn]] void throw_non_finite(int64_t first_step, int64_t last_step) const;
  /// On CUDA: reads the queued finiteness checks of the steps since the last read; throws if
  /// one failed. Called at log steps and before every checkpoint.
  void check_losses_finite();
  /// The validation figures teacher forcing gives, and BLEU with bleu_.
  ValidationFigures validation_figures(const TeacherForcedTotals& totals);
  /// The model validation judges and the best weights keep: the weight average when there is
  /// one.
  model::Seq2Seq& judged() { return average_ ? average_ : model_; }

  RankEnvironment env_;
  ProcessGroup group_;
  std::unique_ptr<GradientReducer> reducer_;  ///< in a group: sums gradients during backward
  torch::Device device_ = torch::kCPU;
  model::Seq2Seq model_{nullptr};
  model::Seq2Seq average_{nullptr};  ///< moving average of model_ (train.ema_decay > 0)
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::unique_ptr<CapturableOptimizerStep> capturable_;  ///< with graphs_
  std::unique_ptr<StepGraphs> graphs_;                   ///< train.cuda_graphs, where possible
  std::vector<data::Example> train_, valid_;
  /// With tokenizer.sample_alpha: the training pairs' text (segment_epoch).
  std::vector<data::Pair> train_text_;
  std::optional<data::Vocabularies> vocab_;  ///< the tokenizers (segment_epoch, bleu_)
  std::optional<ValidationBleu> bleu_;       ///< with train.bleu_sentences > 0
  // The loop's own state, not checkpointed.
  double clock_s_ = 0.0;        ///< training time agreed by all ranks at the last agreed_stop
  double learning_rate_ = 0.0;  ///< the learning rate of the last step
  std::vector<std::vector<int64_t>> batches_;  ///< the current epoch's batches
  DeviceTotals window_;                        ///< steps since the last log line
  TeacherForcedTotals shown_;                  ///< window_ as last read to the host
  double last_step_loss_ = 0.0;                ///< the loss of the last step read
  torch::Tensor losses_nonfinite_;             ///< [] bool: a non-finite loss since checked_step_
  int64_t checked_step_ = 0;                   ///< last step whose loss was checked
  int64_t window_start_tokens_ = 0;
  double window_start_time_ = 0.0;
};

}  // namespace atento
