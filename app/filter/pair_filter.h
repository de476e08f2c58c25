#pragma once
// The pair filter behind atento-filter: a PairClassifier fine-tuned from a translation model
// scores sentence pairs as translations (near 1) or noise (near 0).
// A filter's model directory is a translation model directory whose config.json has a
// non-empty filter.pretrained and whose weights are a PairClassifier's; it also keeps
// test_noisy.tsv, the labelled held-out test set (label<TAB>noise_type<TAB>English<TAB>Spanish).

#include <torch/types.h>

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/common/config.h"
#include "data/corpus.h"
#include "data/tokenizer.h"
#include "model/pair_classifier.h"

namespace atento {

namespace filter_files {
/// In a filter's model directory: the labelled noisy test split.
inline constexpr const char* kNoisyTest = "test_noisy.tsv";
/// In a filter's model directory: the score combination (app/filter/score_combination.h),
/// written by atento-filter --fit-combination.
inline constexpr const char* kCombination = "combination.json";
}  // namespace filter_files

/// Command line of atento-filter.
struct FilterArgs {
  std::string model_dir;
  std::string input;                ///< empty = stdin
  std::string output;               ///< empty = stdout
  std::string evaluate;             ///< labelled TSV to evaluate instead of scoring
  std::optional<double> threshold;  ///< set: print only pairs scoring at least this
  int64_t batch_size = 0;           ///< 0 = the model's filter.batch_size
  int64_t threads = 0;              ///< 0 = all cores
  std::string device;               ///< --device; empty = the model's translate.device (cpu)
  bool fit_combination = false;     ///< fit combination.json on the validation examples
  std::string reverse_model;        ///< with fit_combination: a Spanish→English model directory
  bool no_combination = false;      ///< score with the classifier alone, combination.json or not
};

/// The longest joined pair a classifier built for `tokenizer` reads: [CLS] + src_len English
/// ids + [SEP] + the Spanish ids that tgt_len leaves once [start]/[end] are set apart.
int64_t max_pair_len(const data::TokenizerOptions& tokenizer);

/// Classifier options for a translation model's configuration and tokenizers.
model::PairClassifierOptions filter_options(const Config& config, const data::Vocabularies& vocab);

/// One pair as classifier input ids: [CLS] English [SEP] Spanish, cut to max_pair_len.
std::vector<int64_t> encode_filter_pair(const model::PairClassifierOptions& options,
                                        const data::Vocabularies& vocab, const data::Pair& pair,
                                        int64_t max_len);

/// A trained filter ready to score.
struct LoadedFilter {
  Config config;
  std::unique_ptr<data::Vocabularies> vocab;
  model::PairClassifier model{nullptr};
  torch::Device device = torch::kCPU;
  /// best.json's f1_threshold: the threshold with the best F1 on the validation examples, at
  /// the checkpoint kept as best (absent for filters trained before it was recorded).
  std::optional<double> validation_threshold;
};

/// Loads a filter's model directory (best weights, else the latest checkpoint's) onto `device`
/// (empty: the model's translate.device); eval mode. Throws naming the directory when it holds
/// a translation model, or no weights.
LoadedFilter load_filter(const std::string& model_dir, const std::string& device = "");

/// The classifier's logit (log-odds that the pair is a translation) of each pair, in input
/// order; batches of `batch_size` pairs of similar length.
std::vector<double> classifier_logits(model::PairClassifierImpl& model,
                                      const data::Vocabularies& vocab,
                                      const std::vector<data::Pair>& pairs, int64_t batch_size,
                                      torch::Device device);

/// Probability that each pair is a translation (the sigmoid of its logit), in input order.
std::vector<double> score_pairs(model::PairClassifierImpl& model, const data::Vocabularies& vocab,
                                const std::vector<data::Pair>& pairs, int64_t batch_size,
                                torch::Device device);

/// One input line `English<TAB>Spanish[<TAB>…]` (CR stripped, sides trimmed) as a pair, or
/// nothing with `reason` set: no tab, invalid UTF-8, an empty side.
std::optional<data::Pair> parse_pair_line(const std::string& line, std::string& reason);

/// Scores (or evaluates) and writes; returns the exit code.
int run_filter(const FilterArgs& args);

}  // namespace atento
