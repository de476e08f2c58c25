#pragma once
// The names of the files in a model directory, in one place (app/model_dir/model_dir.h and
// app/train/checkpoint_dir.h describe the layout).

namespace atento {

namespace model_files {
inline constexpr const char* kConfig = "config.json";
/// In the model directory: the best weights so far (by train.best_metric), in the safetensors
/// format (app/model_dir/safetensors.h); the same name in a release.
inline constexpr const char* kBestWeights = "model.safetensors";
/// In a model directory written before the safetensors layout: the best weights as a pickle.
/// Still read (when there is no kBestWeights) and replaced by kBestWeights at the next best.
inline constexpr const char* kLegacyBestWeights = "model.pt";
/// In a checkpoint: the weights being trained, as they were at that step. Checkpoints stay in
/// the pickle format of their optimizer state (docs/training.md says why).
inline constexpr const char* kCheckpointWeights = "model.pt";
/// In a checkpoint: the weight average (train.ema_decay), which validation judges.
inline constexpr const char* kAverageWeights = "average.pt";
/// In a release (app/model_dir/release.h): the weights, in the safetensors format.
inline constexpr const char* kReleaseWeights = kBestWeights;
/// In a release: the model card and the checksums of every other file (sha256sum's format).
inline constexpr const char* kModelCard = "MODEL.md";
inline constexpr const char* kChecksums = "SHA256SUMS";
inline constexpr const char* kBestInfo = "best.json";
inline constexpr const char* kCheckpoints = "checkpoints";
inline constexpr const char* kLatest = "latest";
/// In a checkpoint: the optimiser state.
inline constexpr const char* kOptimizerState = "optimizer.pt";
/// In a checkpoint: the TrainState (written last: its presence marks a complete checkpoint).
inline constexpr const char* kTrainState = "state.json";
inline constexpr const char* kLog = "log.jsonl";
inline constexpr const char* kTrain = "train.tsv";
inline constexpr const char* kValid = "valid.tsv";
inline constexpr const char* kTest = "test.tsv";
}  // namespace model_files

}  // namespace atento
