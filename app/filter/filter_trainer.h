#pragma once
// Training of the pair filter (atento-train with a filter.pretrained setting): a PairClassifier
// started from a trained translation model's encoder, embeddings and tokenizers, fine-tuned on
// the corpus's pairs (positives) and synthetic noise (negatives, data/pair_noise.h).
// The run is the one training loop (app/train/training_loop.h) with the classifier's batches,
// step and validation figures. The model directory is laid out like a translator's (model_dir.h),
// plus test_noisy.tsv.

#include <torch/optim/optimizer.h>
#include <torch/types.h>

#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/common/config.h"
#include "app/train/train_state.h"
#include "app/train/trainer.h"
#include "app/train/training_loop.h"
#include "data/corpus.h"
#include "data/pair_noise.h"
#include "data/tokenizer.h"
#include "model/pair_classifier.h"

namespace atento {

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

/// The labelled validation examples of a filter trained with `config`: the first
/// train.valid_subset pairs of `valid` (all of them when 0) and their negatives, made with the
/// validation split's noise seed (the examples its validations and best.json were judged on).
std::vector<data::LabelledPair> filter_validation_pairs(const Config& config,
                                                        std::vector<data::Pair> valid);

/// Trains a filter in `job.dir` as `job.config` says (filter.pretrained set), in one process;
/// returns the exit code.
int run_filter_training(TrainingJob& job);

class FilterTrainer : public TrainingLoop {
 public:
  FilterTrainer(Config config, std::string dir);
  ~FilterTrainer();
  /// Trains until a stop reason or SIGINT/SIGTERM; returns the exit code.
  int run();

 private:
  void prepare_data();
  void build_model();
  std::vector<std::vector<size_t>> epoch_batches() const;
  /// The classifier's logits [B] for ids/keep [B,L], at train.precision (bf16 autocast or fp32).
  torch::Tensor forward(const torch::Tensor& ids, const torch::Tensor& keep);
  void report_step(double loss, double accuracy, int64_t pairs);
  FilterFigures figures_on_validation();
  // --- the loop's hooks (app/train/training_loop.h) ---
  int64_t batches_in_epoch() const override { return static_cast<int64_t>(batches_.size()); }
  void start_epoch() override { batches_ = epoch_batches(); }
  void train_step() override;
  ValidationFigures evaluate_validation() override;
  CheckpointParts checkpoint_parts() const override;
  const torch::nn::Module& best_model() const override { return *model_; }
  const char* noun() const override { return "filter"; }

  torch::Device device_ = torch::kCPU;
  std::unique_ptr<data::Vocabularies> vocab_;
  model::PairClassifier model_{nullptr};
  std::unique_ptr<torch::optim::Optimizer> optimizer_;
  std::vector<FilterExample> train_, valid_;
  double learning_rate_ = 0.0;  ///< the learning rate of the last step
  std::vector<std::vector<size_t>> batches_;
};

}  // namespace atento
