#include "app/filter/score_combination.h"

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <stdexcept>

#include "app/common/files.h"
#include "app/common/overrides.h"
#include "app/filter/filter_trainer.h"
#include "app/scoring/classification_metrics.h"
#include "app/scoring/teacher_forcing.h"
#include "data/text_io.h"

namespace atento {
namespace {

using nlohmann::json;

std::vector<std::string> feature_names(bool reverse) {
  namespace f = combination_features;
  if (!reverse) return {f::kClassifierLogit, f::kForwardCe};
  return {f::kClassifierLogit, f::kForwardCe, f::kReverseCe, f::kCeDifference};
}

/// `json[key]` as an array of `size` finite numbers; throws naming `path` and `key`.
std::vector<double> numbers(const json& object, const char* key, size_t size,
                            const std::string& path) {
  auto it = object.find(key);
  const std::string where = path + ": " + key;
  if (it == object.end() || !it->is_array() || it->size() != size) {
    throw std::runtime_error(where + ": expected an array of " + std::to_string(size) + " numbers");
  }
  std::vector<double> out;
  for (const auto& v : *it) {
    if (!v.is_number() || !std::isfinite(v.get<double>())) {
      throw std::runtime_error(where + ": expected finite numbers");
    }
    out.push_back(v.get<double>());
  }
  return out;
}

double number(const json& object, const char* key, const std::string& path) {
  auto it = object.find(key);
  if (it == object.end() || !it->is_number() || !std::isfinite(it->get<double>())) {
    throw std::runtime_error(path + ": " + key + ": expected a finite number");
  }
  return it->get<double>();
}

/// The translation model in `dir`, named as the `what` of the filter in `filter_dir`.
TrainedModel open_translation_model(const std::string& dir, const std::string& what,
                                    const std::string& filter_dir, torch::Device device) {
  try {
    return load_trained_model(dir, with_device_override({}, "translate", device.str()));
  } catch (const std::exception& e) {
    throw std::runtime_error(filter_dir + ": the " + what + " '" + dir +
                             "' (its cross-entropy is a feature of the score combination) "
                             "cannot be opened: " +
                             e.what() + " (--no-combination scores with the classifier alone)");
  }
}

std::string direction(const data::CorpusOptions& data) {
  return data.source_lang + "→" + data.target_lang;
}

// The reverse model must translate the other way, by its own config (data.source_lang →
// data.target_lang): given one of the forward direction (the forward model itself, or one
// trained on the swapped corpus with its languages left as they were) its cross-entropy of the
// swapped pairs would be fitted as the reverse one without a word.
void check_reverse_direction(const data::CorpusOptions& forward, const data::CorpusOptions& reverse,
                             const std::string& reverse_dir, const std::string& filter_dir) {
  if (reverse.source_lang == forward.target_lang && reverse.target_lang == forward.source_lang) {
    return;
  }
  const std::string wanted = forward.target_lang + "→" + forward.source_lang;
  const std::string how =
      "train it on the corpus with its columns swapped and --set data.source_lang=" +
      forward.target_lang + " --set data.target_lang=" + forward.source_lang;
  throw std::runtime_error(filter_dir + ": the reverse model '" + reverse_dir + "' translates " +
                           direction(reverse) + " and the forward model (filter.pretrained) " +
                           direction(forward) + "; a reverse model translates " + wanted + " (" +
                           how + ")");
}

std::vector<data::Pair> swapped_sides(const std::vector<data::Pair>& pairs) {
  std::vector<data::Pair> out;
  out.reserve(pairs.size());
  for (const auto& pair : pairs) out.push_back({pair.tgt, pair.src});
  return out;
}

std::string figures_row(const char* name, const std::vector<double>& scores,
                        const std::vector<bool>& labels) {
  const double threshold = best_f1_threshold(scores, labels);
  char row[160];
  std::snprintf(row, sizeof row, "%-18s %9.4f %9.4f at %.4f\n", name, roc_auc(scores, labels),
                binary_metrics(scores, labels, threshold).f1, threshold);
  return row;
}

}  // namespace

json combination_to_json(const ScoreCombination& c) {
  return {{"features", c.features},        {"weights", c.model.weights},
          {"bias", c.model.bias},          {"mean", c.model.mean},
          {"scale", c.model.scale},        {"reverse_model", c.reverse_model},
          {"f1_threshold", c.f1_threshold}};
}

ScoreCombination combination_from_json(const json& j, const std::string& path) {
  if (!j.is_object()) throw std::runtime_error(path + ": expected a JSON object");
  ScoreCombination c;
  auto reverse = j.find("reverse_model");
  if (reverse != j.end() && !reverse->is_string()) {
    throw std::runtime_error(path + ": reverse_model: expected a string");
  }
  if (reverse != j.end()) c.reverse_model = reverse->get<std::string>();
  c.features = feature_names(!c.reverse_model.empty());
  auto features = j.find("features");
  if (features == j.end() || *features != json(c.features)) {
    throw std::runtime_error(path + ": features: expected " + json(c.features).dump() +
                             (c.reverse_model.empty() ? " (no reverse_model)" : ""));
  }
  const size_t n = c.features.size();
  c.model.weights = numbers(j, "weights", n, path);
  c.model.mean = numbers(j, "mean", n, path);
  c.model.scale = numbers(j, "scale", n, path);
  for (double s : c.model.scale) {
    if (s <= 0) throw std::runtime_error(path + ": scale: expected positive numbers");
  }
  c.model.bias = number(j, "bias", path);
  c.f1_threshold = number(j, "f1_threshold", path);
  if (c.f1_threshold < 0 || c.f1_threshold > 1) {
    throw std::runtime_error(path + ": f1_threshold: expected a number in [0, 1]");
  }
  return c;
}

std::optional<ScoreCombination> read_combination(const std::string& model_dir) {
  const auto path = join_path(model_dir, filter_files::kCombination);
  if (!file_exists(path)) return std::nullopt;
  auto j = json::parse(data::read_whole_file(path, filter_files::kCombination), nullptr, false);
  if (j.is_discarded()) throw std::runtime_error(path + ": not valid JSON");
  return combination_from_json(j, path);
}

CrossEntropyModels load_cross_entropy_models(const LoadedFilter& filter,
                                             const std::string& model_dir,
                                             const std::string& reverse_model) {
  CrossEntropyModels models{
      open_translation_model(filter.config.filter.pretrained, "translation model filter.pretrained",
                             model_dir, filter.device),
      std::nullopt};
  if (!reverse_model.empty()) {
    models.reverse = open_translation_model(reverse_model, "reverse (Spanish→English) model",
                                            model_dir, filter.device);
    check_reverse_direction(models.forward.config.data, models.reverse->config.data, reverse_model,
                            model_dir);
  }
  return models;
}

std::vector<std::vector<double>> pair_features(LoadedFilter& filter, CrossEntropyModels& models,
                                               const std::vector<data::Pair>& pairs,
                                               int64_t batch_size) {
  const auto logits =
      classifier_logits(*filter.model, *filter.vocab, pairs, batch_size, filter.device);
  auto& forward = models.forward;
  const auto forward_ce = cross_entropy_per_example(
      forward.model, encode_pairs(*forward.vocab, pairs), batch_size, forward.device);
  std::vector<double> reverse_ce;
  if (models.reverse) {
    auto& reverse = *models.reverse;
    reverse_ce =
        cross_entropy_per_example(reverse.model, encode_pairs(*reverse.vocab, swapped_sides(pairs)),
                                  batch_size, reverse.device);
  }
  std::vector<std::vector<double>> rows(pairs.size());
  for (size_t i = 0; i < pairs.size(); ++i) {
    rows[i] = {logits[i], forward_ce[i]};
    if (models.reverse) {
      rows[i].push_back(reverse_ce[i]);
      rows[i].push_back(std::abs(forward_ce[i] - reverse_ce[i]));
    }
  }
  return rows;
}

std::optional<CombinedScorer> load_combined_scorer(const LoadedFilter& filter,
                                                   const std::string& model_dir) {
  auto combination = read_combination(model_dir);
  if (!combination) return std::nullopt;
  auto models = load_cross_entropy_models(filter, model_dir, combination->reverse_model);
  return CombinedScorer{std::move(*combination), std::move(models)};
}

std::vector<double> combined_scores(LoadedFilter& filter, CombinedScorer& scorer,
                                    const std::vector<data::Pair>& pairs, int64_t batch_size) {
  std::vector<double> scores;
  scores.reserve(pairs.size());
  for (const auto& row : pair_features(filter, scorer.models, pairs, batch_size)) {
    scores.push_back(scorer.combination.model.probability(row));
  }
  return scores;
}

std::string fit_combination(LoadedFilter& filter, const FilterArgs& args, int64_t batch_size) {
  const auto valid_path = join_path(args.model_dir, model_files::kValid);
  if (!file_exists(valid_path)) {
    throw std::runtime_error(valid_path + ": missing (--fit-combination fits on the filter's " +
                             "validation split and its negatives)");
  }
  data::CorpusOptions reading = filter.config.data;
  reading.strict = true;  // written by atento-train
  const auto items = filter_validation_pairs(filter.config, data::read_pairs(valid_path, reading));
  std::vector<data::Pair> pairs;
  std::vector<bool> labels;
  for (const auto& item : items) {
    pairs.push_back(item.pair);
    labels.push_back(item.positive);
  }
  auto models = load_cross_entropy_models(filter, args.model_dir, args.reverse_model);
  const auto rows = pair_features(filter, models, pairs, batch_size);

  ScoreCombination c;
  c.features = feature_names(models.reverse.has_value());
  c.reverse_model = args.reverse_model;
  c.model = fit_logistic_regression(rows, labels);
  std::vector<double> combined, classifier;
  for (const auto& row : rows) {
    combined.push_back(c.model.probability(row));
    classifier.push_back(sigmoid(row[0]));
  }
  c.f1_threshold = best_f1_threshold(combined, labels);

  const auto path = join_path(args.model_dir, filter_files::kCombination);
  std::string report = "score combination fitted on " + std::to_string(items.size()) +
                       " validation examples (" + valid_path + " and its negatives)\n";
  report += "feature              weight   ROC-AUC alone (higher = translation)\n";
  json alone = json::object();
  for (size_t j = 0; j < c.features.size(); ++j) {
    // The logit says "translation" when high, a cross-entropy when low.
    std::vector<double> feature;
    for (const auto& row : rows) feature.push_back(j == 0 ? row[j] : -row[j]);
    const double auc = roc_auc(feature, labels);
    alone[c.features[j]] = auc;
    char line[160];
    std::snprintf(line, sizeof line, "%-18s %9.4f %9.4f%s\n", c.features[j].c_str(),
                  c.model.weights[j], auc, j == 0 ? "" : " (of minus it)");
    report += line;
  }
  report += "\non the validation examples  ROC-AUC   best F1 at threshold\n";
  report += figures_row("classifier alone", classifier, labels);
  report += figures_row("combination", combined, labels);
  report += "written to " + path + "\n";

  json out = combination_to_json(c);
  out["validation"] = {{"examples", items.size()},
                       {"feature_roc_auc", alone},
                       {"classifier_roc_auc", roc_auc(classifier, labels)},
                       {"combination_roc_auc", roc_auc(combined, labels)}};
  data::write_file_atomically(path, out.dump(2) + "\n");
  return report;
}

}  // namespace atento
