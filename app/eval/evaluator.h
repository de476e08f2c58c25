#pragma once
// The evaluation job behind atento-eval.

#include <cstdint>
#include <string>
#include <vector>

#include "app/eval/score_report.h"

namespace atento {

/// Command line of atento-eval. Two modes: a model (--model DIR --pairs FILE) translates the
/// pairs' sources, or its translations are replaced by --hyps; without a model, --hyps FILE is
/// scored against --refs FILE... line by line.
struct EvalArgs {
  std::string model_dir;  ///< empty = score --hyps against --refs, no model
  std::string pairs;
  std::vector<std::string> refs;  ///< --refs: reference files, line-aligned with --hyps
  bool json = false;
  int64_t beam = 0;        ///< 0 = the model's translate.beam
  int64_t batch_size = 0;  ///< 0 = the model's translate.batch_size
  std::string output;      ///< --output: write the model's translations; empty = do not
  /// --short-outputs: write the short translations (eval_subsets.h); empty = do not
  std::string short_outputs;
  bool no_translate = false;
  bool no_split = false;  ///< --no-split: each source is one piece, not its sentences
  /// --hyps: translations to score. With --model, one line per distinct English source of
  /// --pairs in first-occurrence order (as --output writes them), instead of the model's own;
  /// without, one line per line of --refs.
  std::string hyps;
  ScoreOptions
      scores;  ///< --chrf-word-order, --per-sentence, --paired-bs, --paired-bs-n, --bs-seed
  int64_t threads = -1;   ///< -1 = the model's translate.threads
  std::string device;     ///< --device; empty = the model's translate.device (cpu)
  std::string precision;  ///< --precision; empty = the model's translate.precision
  std::vector<std::string> overrides;
};

int run_evaluation(const EvalArgs& args);

}  // namespace atento
