#pragma once
// The evaluation job behind atento-eval.

#include <cstdint>
#include <string>
#include <vector>

namespace atento {

/// Command line of atento-eval.
struct EvalArgs {
  std::string model_dir;
  std::string pairs;
  bool json = false;
  int64_t beam = 0;        ///< 0 = the model's translate.beam
  int64_t batch_size = 0;  ///< 0 = the model's translate.batch_size
  std::string hyps_out;    ///< empty = do not write translations
  bool no_translate = false;
  bool no_split = false;  ///< --no-split: each source is one piece, not its sentences
  /// Score these translations (one line per distinct English source, in first-occurrence
  /// order, as --hyps writes them) instead of translating: compares other systems.
  std::string translations;
  int64_t threads = -1;  ///< -1 = the model's translate.threads
  std::string device;    ///< --device; empty = the model's translate.device (cpu)
  std::vector<std::string> overrides;
};

int run_evaluation(const EvalArgs& args);

}  // namespace atento
