#pragma once
// The translation job behind atento-translate.

#include <cstdint>
#include <string>
#include <vector>

#include "app/model_dir/model_dir.h"
#include "model/search.h"

namespace atento {

/// Command line of atento-translate. Unset numbers (0) fall back to the model's config.
struct TranslateArgs {
  std::string model_dir;
  std::string input;   ///< empty = stdin
  std::string output;  ///< empty = stdout
  int64_t beam = 0;
  int64_t n_best = 0;
  int64_t batch_size = 0;
  bool no_cache = false;
  std::string attention_file;  ///< empty = no attention dump
  int64_t force_len = 0;       ///< > 0: decode exactly this many tokens (benchmarks)
  int64_t threads = -1;        ///< -1 = the model's translate.threads
  std::string device;          ///< --device; empty = the model's translate.device (cpu)
  std::vector<std::string> overrides;
};

/// Reads, translates and writes; returns the exit code.
int run_translation(const TranslateArgs& args);

/// Search settings of a loaded model (translate.* of its config).
model::SearchOptions search_options(const TrainedModel& trained);

/// Translates tokenized sources in batches of `batch_size` hypothesis rows (max(1,
/// batch_size / beam) sentences), sorted by length so that padding stays small, and returns
/// the hypotheses in input order.
std::vector<std::vector<model::Hypothesis>> translate_sources(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, int64_t batch_size);

}  // namespace atento
