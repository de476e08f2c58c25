#pragma once
// The training job behind atento-train.

#include <string>
#include <vector>

namespace atento {

/// Command line of atento-train.
struct TrainArgs {
  std::string config;                  ///< JSON configuration file
  std::vector<std::string> overrides;  ///< --set section.key=value, in order
  std::string out = "runs/model";      ///< model directory; an existing one is resumed
};

/// Reads and splits the corpus, trains or reuses the tokenizers, trains, validates and keeps
/// the best checkpoint in `args.out`. Returns the exit code (130/143 after SIGINT/SIGTERM,
/// with a checkpoint saved).
int run_training(const TrainArgs& args);

}  // namespace atento
