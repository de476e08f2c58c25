#pragma once
// The pair filter's score combination: a logistic regression over the classifier's logit and
// the translation model's forced-decoding cross-entropy per target token (the Spanish given
// the English, teacher forced; with a Spanish→English model also the reverse one and their
// difference: Junczys-Dowmunt 2018's dual conditional cross-entropy). Fitted on the filter's
// labelled validation examples by atento-filter --fit-combination and kept in the filter
// directory as combination.json; atento-filter scores with it whenever it is there (unless
// --no-combination).

#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <optional>
#include <string>
#include <vector>

#include "app/filter/pair_filter.h"
#include "app/model_dir/model_dir.h"
#include "app/scoring/logistic_regression.h"
#include "data/corpus.h"

namespace atento {

/// Feature names, in the order of a feature row.
namespace combination_features {
inline constexpr const char* kClassifierLogit = "classifier_logit";
inline constexpr const char* kForwardCe = "forward_ce";        ///< H(Spanish | English) per token
inline constexpr const char* kReverseCe = "reverse_ce";        ///< H(English | Spanish) per token
inline constexpr const char* kCeDifference = "ce_difference";  ///< |forward_ce − reverse_ce|
}  // namespace combination_features

/// combination.json.
struct ScoreCombination {
  std::vector<std::string> features;  ///< classifier_logit, forward_ce[, reverse_ce, ce_difference]
  LogisticModel model;
  std::string reverse_model;  ///< the Spanish→English model directory; empty: forward only
  double f1_threshold = 0.5;  ///< the best F1 of the combined score on the validation examples
};

/// The fields above as JSON (the fit adds its validation figures beside them).
nlohmann::json combination_to_json(const ScoreCombination& combination);
/// Throws std::runtime_error naming `path` for a missing or malformed field.
ScoreCombination combination_from_json(const nlohmann::json& json, const std::string& path);

/// The model directory's combination.json, or nothing when it has none; throws naming the file
/// when it is there but unreadable.
std::optional<ScoreCombination> read_combination(const std::string& model_dir);

/// The translation models whose cross-entropies are features: the filter's filter.pretrained
/// (forward) and, when given, a Spanish→English one.
struct CrossEntropyModels {
  TrainedModel forward;
  std::optional<TrainedModel> reverse;
};

/// Loads them onto the filter's device; throws naming the filter directory, the setting and
/// the path when a model cannot be opened.
CrossEntropyModels load_cross_entropy_models(const LoadedFilter& filter,
                                             const std::string& model_dir,
                                             const std::string& reverse_model);

/// One feature row per pair: the classifier's logit, the forward cross-entropy per token and,
/// with a reverse model, the reverse one and the absolute difference. Pairs longer than a
/// model's lengths are cut as that model cuts them.
std::vector<std::vector<double>> pair_features(LoadedFilter& filter, CrossEntropyModels& models,
                                               const std::vector<data::Pair>& pairs,
                                               int64_t batch_size);

/// A combination with its models, ready to score.
struct CombinedScorer {
  ScoreCombination combination;
  CrossEntropyModels models;
};

/// The filter directory's combination and its models, or nothing without combination.json.
std::optional<CombinedScorer> load_combined_scorer(const LoadedFilter& filter,
                                                   const std::string& model_dir);

/// The combined probability that each pair is a translation, in input order.
std::vector<double> combined_scores(LoadedFilter& filter, CombinedScorer& scorer,
                                    const std::vector<data::Pair>& pairs, int64_t batch_size);

/// Fits the combination on the filter's validation examples (valid.tsv in `args.model_dir`
/// and its negatives, as the trainer made them), writes combination.json and returns a report
/// (each feature's ROC-AUC alone, the classifier's and the combination's figures).
std::string fit_combination(LoadedFilter& filter, const FilterArgs& args, int64_t batch_size);

}  // namespace atento
