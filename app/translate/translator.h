#pragma once
// The translation job behind atento-translate.

#include <cstdint>
#include <string>
#include <vector>

#include "app/common/overrides.h"
#include "app/model_dir/model_dir.h"
#include "model/search.h"

namespace atento {

class GreedyGraphs;

/// Command line of atento-translate. Unset numbers (0) fall back to the model's config.
struct TranslateArgs {
  std::string model_dir;
  std::string input;   ///< empty = stdin
  std::string output;  ///< empty = stdout
  /// --beam, --n-best, --batch-size, --no-cache, --no-split (a line is one source, not its
  /// sentences), --threads, --device, --precision; each unset one: the model's translate.*
  TranslateFlags flags;
  std::string attention_file;   ///< empty = no attention dump
  int64_t force_len = 0;        ///< > 0: decode exactly this many tokens (benchmarks)
  int64_t window = 2000;        ///< lines held in memory at once (--window)
  std::string format = "text";  ///< --format: text (line by line) or html (one document)
  std::vector<std::string> overrides;
};

/// Reads, translates and writes, `window` lines at a time (from a pipe or terminal: each line
/// as soon as it arrives); returns the exit code.
int run_translation(const TranslateArgs& args);

/// Search settings of a loaded model (translate.* of its config).
model::SearchOptions search_options(const TrainedModel& trained);

/// Translates tokenized sources in batches of `batch_size` hypothesis rows (max(1,
/// batch_size / beam) sentences), sorted by length so that padding stays small, and returns
/// the hypotheses in input order. With `graphs`, each batch is decoded by it
/// (translate.cuda_graphs; greedy only).
std::vector<std::vector<model::Hypothesis>> translate_sources(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, int64_t batch_size, GreedyGraphs* graphs = nullptr);

/// The best translation of each of `texts`: segmented as translate.split_sentences says
/// (app/translate/text_segments.h), translated piece by piece, joined with the text's spacing;
/// "" for a text that is blank, not UTF-8 or without a source token.
std::vector<std::string> translate_texts(TrainedModel& trained,
                                         const std::vector<std::string>& texts,
                                         const model::SearchOptions& search);

}  // namespace atento
