#include "app/filter/pair_filter.h"

#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <sstream>

#include "app/common/files.h"
#include "app/common/overrides.h"
#include "app/common/runtime.h"
#include "app/common/stopwatch.h"
#include "app/filter/score_combination.h"
#include "app/model_dir/model_dir.h"
#include "app/model_dir/weights_file.h"
#include "app/scoring/classification_metrics.h"
#include "app/scoring/logistic_regression.h"
#include "data/pair_noise.h"
#include "data/text_io.h"
#include "model/checkpoint.h"
#include "model/eval_mode.h"
#include "model/initialisation.h"

namespace atento {

int64_t max_pair_len(const data::TokenizerOptions& tokenizer) {
  return tokenizer.src_len + tokenizer.tgt_len;  // [CLS] + src + [SEP] + (tgt_len - 2)
}

model::PairClassifierOptions filter_options(const Config& config, const data::Vocabularies& vocab) {
  return model::pair_classifier_options(config.model, vocab.tgt().bos_id(), vocab.tgt().eos_id(),
                                        max_pair_len(config.tokenizer));
}

std::vector<int64_t> encode_filter_pair(const model::PairClassifierOptions& options,
                                        const data::Vocabularies& vocab, const data::Pair& pair,
                                        int64_t max_len) {
  return model::join_pair(options, vocab.src().encode(pair.src), vocab.tgt().encode(pair.tgt),
                          max_len);
}

namespace {

/// best.json's f1_threshold, if the file has one; throws naming the file if it is not JSON.
std::optional<double> recorded_threshold(const std::string& model_dir) {
  const auto path = join_path(model_dir, model_files::kBestInfo);
  if (!file_exists(path)) return std::nullopt;
  auto info = nlohmann::json::parse(data::read_whole_file(path, "best.json"), nullptr, false);
  if (info.is_discarded()) throw std::runtime_error(path + ": not valid JSON");
  auto it = info.find("f1_threshold");
  if (it == info.end() || !it->is_number()) return std::nullopt;
  return it->get<double>();
}

}  // namespace

LoadedFilter load_filter(const std::string& model_dir, const std::string& device) {
  OpenedModelDir opened =
      open_model_dir(model_dir, ModelKind::kFilter, with_device_override({}, "translate", device));
  LoadedFilter loaded;
  loaded.config = std::move(opened.config);
  loaded.vocab = std::move(opened.vocab);
  loaded.device = opened.device;
  {
    const model::SkipInitialisation every_parameter_is_loaded;
    loaded.model = model::PairClassifier(filter_options(loaded.config, *loaded.vocab));
  }
  load_weights_file(*loaded.model, opened.weights);
  loaded.model->to(loaded.device);
  loaded.model->eval();
  loaded.validation_threshold = recorded_threshold(model_dir);
  return loaded;
}

std::vector<double> score_pairs(model::PairClassifierImpl& model, const data::Vocabularies& vocab,
                                const std::vector<data::Pair>& pairs, int64_t batch_size,
                                torch::Device device) {
  auto scores = classifier_logits(model, vocab, pairs, batch_size, device);
  for (auto& s : scores) s = sigmoid(s);
  return scores;
}

std::vector<double> classifier_logits(model::PairClassifierImpl& model,
                                      const data::Vocabularies& vocab,
                                      const std::vector<data::Pair>& pairs, int64_t batch_size,
                                      torch::Device device) {
  const int64_t max_len = model.options.encoder.max_len;
  std::vector<std::vector<int64_t>> joined;
  joined.reserve(pairs.size());
  for (const auto& pair : pairs) {
    joined.push_back(encode_filter_pair(model.options, vocab, pair, max_len));
  }
  // Similar lengths share a batch, so little of it is padding.
  std::vector<size_t> order(pairs.size());
  std::iota(order.begin(), order.end(), 0);
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return joined[a].size() < joined[b].size(); });
  model::EvalModeGuard eval(model);  // and no gradients
  std::vector<double> scores(pairs.size(), 0.0);
  for (size_t begin = 0; begin < order.size(); begin += static_cast<size_t>(batch_size)) {
    const size_t end = std::min(order.size(), begin + static_cast<size_t>(batch_size));
    std::vector<std::vector<int64_t>> rows;
    for (size_t i = begin; i < end; ++i) rows.push_back(std::move(joined[order[i]]));
    auto batch = model::pad_pairs(rows);
    auto logits = model.forward(batch.ids.to(device), batch.keep.to(device))
                      .to(torch::kCPU, torch::kDouble)
                      .contiguous();  // [B]
    const double* p = logits.data_ptr<double>();
    for (size_t i = begin; i < end; ++i) scores[order[i]] = p[i - begin];
  }
  return scores;
}

std::optional<data::Pair> parse_pair_line(const std::string& line, std::string& reason) {
  std::string_view text(line);
  if (!text.empty() && text.back() == '\r') text.remove_suffix(1);
  data::Pair pair;
  reason = data::check_pair_line(text, 0, &pair);
  if (!reason.empty()) return std::nullopt;
  return pair;
}

namespace {

/// Writes `text` to `path`, or to stdout when empty.
void write_output(const std::string& path, const std::string& text) {
  if (path.empty()) {
    std::cout << text << std::flush;
    if (!std::cout) throw std::runtime_error("cannot write to standard output");
  } else {
    data::write_file_atomically(path, text);
  }
}

std::string format_score(double score) {
  char buffer[32];
  std::snprintf(buffer, sizeof buffer, "%.4f", score);
  return buffer;
}

/// Scores pairs in input order: the classifier alone, or the score combination.
using PairScorer = std::function<std::vector<double>(const std::vector<data::Pair>&)>;

int score_lines(const PairScorer& score, const FilterArgs& args) {
  const auto lines = data::read_lines(args.input);
  const std::string input_name = args.input.empty() ? "stdin" : args.input;
  std::vector<data::Pair> pairs;
  std::vector<size_t> line_of;  // input line of each pair
  for (size_t i = 0; i < lines.size(); ++i) {
    std::string reason;
    if (auto pair = parse_pair_line(lines[i], reason)) {
      pairs.push_back(std::move(*pair));
      line_of.push_back(i);
    } else {
      std::cerr << "warning: " << input_name << ":" << i + 1 << ": " << reason << " (scored 0)\n";
    }
  }
  const Stopwatch watch;
  auto scores = score(pairs);
  const double seconds = watch.seconds();
  std::vector<double> line_scores(lines.size(), 0.0);
  for (size_t k = 0; k < pairs.size(); ++k) line_scores[line_of[k]] = scores[k];
  std::string out;
  size_t k = 0;
  for (size_t i = 0; i < lines.size(); ++i) {
    const bool valid = k < line_of.size() && line_of[k] == i;
    if (args.threshold && (!valid || line_scores[i] < *args.threshold)) {
      k += valid;
      continue;
    }
    out += format_score(line_scores[i]) + "\t";
    if (valid) {
      out += pairs[k].src + "\t" + pairs[k].tgt;
    } else {  // the line as it came, still three columns
      std::string_view raw(lines[i]);
      if (!raw.empty() && raw.back() == '\r') raw.remove_suffix(1);
      out.append(raw);
      if (raw.find('\t') == std::string_view::npos) out += "\t";
    }
    out += "\n";
    k += valid;
  }
  write_output(args.output, out);
  char rate[160];
  std::snprintf(rate, sizeof rate, "scored %zu pairs in %.2f s (%.0f pairs/s)\n", pairs.size(),
                seconds, pairs.size() / std::max(seconds, 1e-9));
  std::cerr << rate;
  return kExitOk;
}

std::string metrics_row(const std::string& name, const BinaryMetrics& m) {
  char row[200];
  std::snprintf(row, sizeof row, "%-13s %7lld %9.4f %9.4f %9.4f %9.4f %9.4f\n", name.c_str(),
                static_cast<long long>(m.count), m.accuracy, m.precision, m.recall, m.f1,
                m.roc_auc);
  return row;
}

/// Figures at `threshold` (chosen by `source`) overall and per noise type; each type is judged
/// against all the clean pairs.
std::string metrics_table(const std::vector<data::LabelledPair>& items,
                          const std::vector<double>& scores, double threshold,
                          const std::string& source) {
  char title[200];
  std::snprintf(title, sizeof title, "threshold %.4f (%s)\n", threshold, source.c_str());
  std::string out = title;
  out += "type              pairs  accuracy precision    recall        F1   ROC-AUC\n";
  std::vector<bool> labels;
  for (const auto& item : items) labels.push_back(item.positive);
  out += metrics_row("all", binary_metrics(scores, labels, threshold));
  for (auto kind : data::negative_kinds()) {
    std::vector<double> s;
    std::vector<bool> l;
    for (size_t i = 0; i < items.size(); ++i) {
      if (items[i].kind != kind && items[i].kind != data::NoiseKind::kClean) continue;
      s.push_back(scores[i]);
      l.push_back(items[i].positive);
    }
    if (l.size() > static_cast<size_t>(std::count(l.begin(), l.end(), true))) {
      out += metrics_row(data::noise_kind_name(kind), binary_metrics(s, l, threshold));
    }
  }
  return out;
}

/// What scores the pairs, for --evaluate's first line.
std::string scores_line(const std::optional<CombinedScorer>& combined) {
  if (!combined) return "scores: the classifier alone\n";
  std::string features;
  for (const auto& name : combined->combination.features) {
    features += (features.empty() ? "" : ", ") + name;
  }
  return "scores: the score combination (" + std::string(filter_files::kCombination) + ": " +
         features + ")\n";
}

int evaluate_labelled(const PairScorer& score, const LoadedFilter& filter,
                      const std::optional<CombinedScorer>& combined, const FilterArgs& args) {
  const auto items = data::read_labelled_pairs(args.evaluate);
  std::vector<data::Pair> pairs;
  for (const auto& item : items) pairs.push_back(item.pair);
  auto scores = score(pairs);
  std::string out = scores_line(combined);
  if (args.threshold) {
    out += metrics_table(items, scores, *args.threshold, "--threshold");
  } else {
    out += metrics_table(items, scores, filter.config.filter.threshold, "filter.threshold");
    // The validation threshold of what scores: the combination's, else best.json's.
    std::optional<double> validation = filter.validation_threshold;
    std::string source = "the best F1 on the validation examples, from best.json";
    if (combined) {
      validation = combined->combination.f1_threshold;
      source =
          std::string("the best F1 on the validation examples, from ") + filter_files::kCombination;
    }
    if (validation) out += "\n" + metrics_table(items, scores, *validation, source);
  }
  write_output(args.output, out);
  return kExitOk;
}

}  // namespace

int run_filter(const FilterArgs& args) {
  auto filter = load_filter(args.model_dir, args.device);
  set_threads(args.threads);
  const int64_t batch_size =
      args.batch_size > 0 ? args.batch_size : filter.config.filter.batch_size;
  if (args.fit_combination) {
    write_output(args.output, fit_combination(filter, args, batch_size));
    return kExitOk;
  }
  std::optional<CombinedScorer> combined;
  if (!args.no_combination) combined = load_combined_scorer(filter, args.model_dir);
  const PairScorer score = [&](const std::vector<data::Pair>& pairs) {
    if (combined) return combined_scores(filter, *combined, pairs, batch_size);
    return score_pairs(*filter.model, *filter.vocab, pairs, batch_size, filter.device);
  };
  if (!args.evaluate.empty()) return evaluate_labelled(score, filter, combined, args);
  return score_lines(score, args);
}

}  // namespace atento
