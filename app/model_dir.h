#pragma once
// The model directory: everything a trained model needs, in one folder.
//   config.json        resolved configuration, architecture and vocabulary sizes included
//   vocab/tokenizer    files of data::train_vocabularies
//   model.pt           best weights so far (by train.best_metric), best.json its figures
//   checkpoints/       step-N/{model.pt,optimizer.pt,state.json} and `latest` naming one
//                      (app/checkpoint_dir.h)
//   train.tsv valid.tsv test.tsv   the split
//   log.jsonl          one JSON object per event

#include <torch/types.h>

#include <memory>
#include <string>
#include <vector>

#include "app/config.h"
#include "data/tokenizer.h"
#include "model/seq2seq.h"

namespace atento {

namespace model_files {
inline constexpr const char* kConfig = "config.json";
/// In the model directory: the best weights so far (by train.best_metric).
inline constexpr const char* kBestWeights = "model.pt";
/// In a checkpoint: the weights being trained, as they were at that step.
inline constexpr const char* kCheckpointWeights = "model.pt";
/// In a checkpoint: the weight average (train.ema_decay), which validation judges.
inline constexpr const char* kAverageWeights = "average.pt";
inline constexpr const char* kBestInfo = "best.json";
inline constexpr const char* kCheckpoints = "checkpoints";
inline constexpr const char* kLatest = "latest";
inline constexpr const char* kLog = "log.jsonl";
inline constexpr const char* kTrain = "train.tsv";
inline constexpr const char* kValid = "valid.tsv";
inline constexpr const char* kTest = "test.tsv";
}  // namespace model_files

/// Parses a device name (cpu, cuda, cuda:N) set by `key` (train.device, translate.device) and
/// checks that it exists here; throws ConfigError naming the key and its flag otherwise.
torch::Device resolve_device(const std::string& name, const std::string& key);

/// A trained model ready for translation or evaluation.
struct TrainedModel {
  Config config;
  std::unique_ptr<data::Vocabularies> vocab;
  model::Seq2Seq model{nullptr};
  torch::Device device = torch::kCPU;
  std::string weights;  ///< file the weights came from
};

/// Loads config.json (with translate.* overrides only), the tokenizers and the best weights
/// (or the latest checkpoint's when no validation has run yet); eval mode.
TrainedModel load_trained_model(const std::string& model_dir,
                                const std::vector<std::string>& overrides);

}  // namespace atento
