#pragma once
// Training of the pair filter (atento-train with a filter.pretrained setting): a PairClassifier
// started from a trained translation model's encoder, embeddings and tokenizers, fine-tuned on
// the corpus's pairs (positives) and synthetic noise (negatives, data/pair_noise.h).
// The run is built from the translation trainer's parts: TrainState, checkpoint_dir,
// validation_decision (by accuracy or loss), stop_reason, stop_signals, schedule, optimizer,
// progress, weights_file. The model directory is laid out like a translator's (model_dir.h),
// plus test_noisy.tsv.

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/config.h"
#include "app/train_state.h"
#include "data/tokenizer.h"
#include "model/pair_classifier.h"

namespace atento {

class JsonlLog;
class ProgressDisplay;

/// One joined pair and its label.
struct FilterExample {
  std::vector<int64_t> ids;
  bool positive = true;
};

/// Validation figures of the classifier.
struct FilterFigures {
  double loss = 0.0;
  double accuracy = 0.0;
  double f1 = 0.0;
  double roc_auc = 0.0;
  double f1_threshold = 0.5;  ///< the threshold with the best F1 on these examples
  double f1_at_threshold = 0.0;
};

/// Trains a filter in `dir` as `config` says (filter.pretrained set); returns the exit code.
int run_filter_training(Config config, const std::string& dir);

class FilterTrainer {
 public:
  FilterTrainer(Config config, std::string dir);
  ~FilterTrainer();
  /// Trains until a stop reason or SIGINT/SIGTERM; returns the exit code.
  int run();

 private:
  void prepare_data();
  void build_model();
  std::vector<std::vector<size_t>> epoch_batches() const;
  double elapsed() const;
  /// The classifier's logits [B] for ids/keep [B,L], at train.precision (bf16 autocast or fp32).
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& keep);
  void train_step();
  void report_step(double loss, double accuracy, int64_t pairs);
  FilterFigures evaluate_validation();
  void validate_now();
  int finish(const std::string& reason);

  Config config_;
  std::string dir_;
  torch::Device device_ = torch::kCPU;
  std::unique_ptr<data::Vocabularies> vocab_;
  model::PairClassifier model_{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::vector<FilterExample> train_, valid_;
  TrainState state_;
  std::unique_ptr<JsonlLog> log_;
  std::unique_ptr<ProgressDisplay> display_;
  std::chrono::steady_clock::time_point started_;
  double elapsed_before_ = 0.0;
  double learning_rate_ = 0.0;  ///< the learning rate of the last step
  std::vector<std::vector<size_t>> batches_;
};

}  // namespace atento
