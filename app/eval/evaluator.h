#pragma once
// The evaluation job behind atento-eval.

#include <cstdint>
#include <string>
#include <vector>

#include "app/common/overrides.h"
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
  /// --beam, --batch-size, --no-split (each source one piece, not its sentences), --threads,
  /// --device, --precision; each unset one: the model's translate.*
  TranslateFlags flags;
  std::string output;      ///< --output: write the model's translations; empty = do not
  /// --short-outputs: write the short translations (eval_subsets.h); empty = do not
  std::string short_outputs;
  bool no_translate = false;
  /// --hyps: translations to score. With --model, one line per distinct English source of
  /// --pairs in first-occurrence order (as --output writes them), instead of the model's own;
  /// without, one line per line of --refs.
  std::string hyps;
  ScoreOptions
      scores;  ///< --chrf-word-order, --per-sentence, --paired-bs, --paired-bs-n, --bs-seed
  std::vector<std::string> overrides;
};

int run_evaluation(const EvalArgs& args);

}  // namespace atento
