#pragma once
// atento-average: a new model directory whose weights are the mean of the last N checkpoints of
// a trained one (kept on disk by train.keep_checkpoints), ready for atento-translate, atento-eval
// and atento-serve.

#include <cstdint>
#include <string>

namespace atento {

/// Which weights of each checkpoint are averaged.
enum class AveragedWeights {
  kTrained,  ///< the weights the optimiser trains (checkpoint model.pt)
  kAverage,  ///< their exponential moving average (checkpoint average.pt, train.ema_decay)
};

struct AverageArgs {
  std::string model_dir;
  std::string out_dir;
  int64_t last = 5;
  AveragedWeights weights = AveragedWeights::kTrained;
};

/// Name of the file in the new directory that says what was averaged.
inline constexpr const char* kAverageInfo = "average.json";

/// Writes `out_dir`: the configuration, tokenizer and split files of `model_dir`,
/// model.safetensors (the mean of the chosen weights of its `last` newest complete checkpoints) and
/// average.json naming them. Throws ConfigError when there are fewer checkpoints than asked for or
/// `out_dir` already holds a model. Returns the exit code.
int run_average(const AverageArgs& args);

}  // namespace atento
