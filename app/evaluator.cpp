#include "app/evaluator.h"

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>

#include "app/cli.h"
#include "app/files.h"
#include "app/metrics.h"
#include "app/model_dir.h"
#include "app/overrides.h"
#include "app/teacher_forcing.h"
#include "app/translator.h"
#include "data/corpus.h"
#include "data/text_io.h"

namespace atento {
namespace {

using nlohmann::json;

/// Figures of one set of pairs.
struct EvalFigures {
  TeacherForcedTotals teacher_forced;
  int64_t pairs = 0;
  int64_t sources = 0;  ///< distinct English sentences (each translated once)
  double bleu = NAN;
  double chrf = NAN;
};

json to_json(const EvalFigures& f) {
  auto number = [](double x) { return std::isnan(x) ? json(nullptr) : json(x); };
  return {{"pairs", f.pairs},
          {"sources", f.sources},
          {"target_tokens", f.teacher_forced.tokens},
          {"next_word_accuracy", f.teacher_forced.accuracy()},
          {"loss", f.teacher_forced.loss()},
          {"perplexity", std::exp(f.teacher_forced.loss())},
          {"bleu", number(f.bleu)},
          {"chrf", number(f.chrf)}};
}

/// Translations are made once per distinct English source; every Spanish side sharing that
/// source is one of its references.
EvalFigures evaluate_pairs(TrainedModel& trained, const std::vector<data::Pair>& pairs,
                           const std::map<std::string, std::string>& translations,
                           int64_t batch_tokens) {
  EvalFigures f;
  f.pairs = static_cast<int64_t>(pairs.size());
  if (pairs.empty()) return f;
  f.teacher_forced =
      evaluate_teacher_forced(trained.model, encode_pairs(*trained.vocab, pairs), batch_tokens,
                              trained.device, trained.config.translate.precision);
  if (translations.empty()) return f;
  std::vector<std::string> order;
  std::map<std::string, std::vector<std::string>> refs;
  for (const auto& p : pairs) {
    if (!refs.count(p.src)) order.push_back(p.src);
    refs[p.src].push_back(p.tgt);
  }
  std::vector<std::string> hyps;
  std::vector<std::vector<std::string>> refsets;
  for (const auto& src : order) {
    hyps.push_back(translations.at(src));
    refsets.push_back(refs[src]);
  }
  f.sources = static_cast<int64_t>(order.size());
  f.bleu = corpus_bleu(hyps, refsets).score;
  f.chrf = corpus_chrf(hyps, refsets);
  return f;
}

void print_table(const std::string& name, const EvalFigures& f) {
  std::printf("%-22s pairs %6lld  next-word acc %6.2f%%  loss %.4f  ppl %8.2f", name.c_str(),
              static_cast<long long>(f.pairs), 100.0 * f.teacher_forced.accuracy(),
              f.teacher_forced.loss(), std::exp(f.teacher_forced.loss()));
  if (!std::isnan(f.bleu)) std::printf("  BLEU %6.2f  chrF %6.2f", f.bleu, f.chrf);
  std::printf("\n");
}

/// The pairs to evaluate, with skipped lines reported on stderr.
std::vector<data::Pair> read_eval_pairs(const EvalArgs& args, const TrainedModel& trained,
                                        data::ReadReport& report) {
  auto pairs = data::read_pairs(args.pairs, trained.config.data, &report);
  for (const auto& problem : report.problems) std::cerr << "warning: " << problem << "\n";
  if (report.skipped > 0) {
    std::cerr << "warning: " << args.pairs << ": skipped " << report.skipped << " bad line(s)\n";
  }
  return pairs;
}

/// The English sources of the model's train.tsv; nullopt when the directory has none.
std::optional<std::set<std::string>> training_sources(const EvalArgs& args,
                                                      const TrainedModel& trained) {
  auto train_path = join_path(args.model_dir, model_files::kTrain);
  if (!file_exists(train_path)) return std::nullopt;
  data::CorpusOptions options = trained.config.data;
  options.strict = false;
  std::set<std::string> seen;
  for (auto& p : data::read_pairs(train_path, options)) seen.insert(std::move(p.src));
  return seen;
}

/// The distinct English sources of `pairs`, in first-occurrence order.
std::vector<std::string> distinct_sources(const std::vector<data::Pair>& pairs) {
  std::set<std::string> done;
  std::vector<std::string> order;
  for (const auto& p : pairs) {
    if (done.insert(p.src).second) order.push_back(p.src);
  }
  return order;
}

/// --translations: one line per distinct source, checked against their number.
std::vector<std::string> read_translations(const EvalArgs& args, size_t sources) {
  std::vector<std::string> texts;
  std::ifstream in(args.translations);
  if (!in) throw std::runtime_error(args.translations + ": cannot read translations");
  for (std::string line; std::getline(in, line);) texts.push_back(line);
  if (texts.size() != sources) {
    throw std::runtime_error(args.translations + ": " + std::to_string(texts.size()) +
                             " lines, but " + args.pairs + " has " + std::to_string(sources) +
                             " distinct English sources");
  }
  return texts;
}

/// The model's best translation of each source (empty when the search found none).
std::vector<std::string> model_translations(TrainedModel& trained,
                                            const std::vector<std::string>& order) {
  std::vector<std::vector<int64_t>> sources;
  for (const auto& src : order) sources.push_back(trained.vocab->encode_source(src));
  auto search = search_options(trained);
  search.n_best = 1;
  auto found = translate_sources(trained, sources, search, trained.config.translate.batch_size);
  std::vector<std::string> texts;
  for (const auto& hypotheses : found) {
    texts.push_back(hypotheses.empty() ? "" : trained.vocab->decode_target(hypotheses[0].tokens));
  }
  return texts;
}

/// One translation per distinct source (read or made), also written to --hyps when given.
std::map<std::string, std::string> translate_once(const EvalArgs& args, TrainedModel& trained,
                                                  const std::vector<data::Pair>& pairs) {
  auto order = distinct_sources(pairs);
  auto texts = args.translations.empty() ? model_translations(trained, order)
                                         : read_translations(args, order.size());
  if (!args.hyps_out.empty()) {
    std::string lines;
    for (const auto& text : texts) lines += text + "\n";
    data::write_file_atomically(args.hyps_out, lines);
  }
  std::map<std::string, std::string> translations;
  for (size_t i = 0; i < order.size(); ++i) translations[order[i]] = std::move(texts[i]);
  return translations;
}

/// The figures of every pair and of those whose source is unseen in training.
struct EvalResults {
  EvalFigures all;
  EvalFigures unseen;
  bool have_train = false;  ///< `unseen` is meaningful (the model directory keeps train.tsv)
  int64_t skipped_lines = 0;
};

void print_results(const EvalArgs& args, const TrainedModel& trained, const EvalResults& r) {
  bool words = trained.config.tokenizer.kind == data::TokenizerKind::kWords;
  if (args.json) {
    json out = to_json(r.all);
    out["tokenizer"] = words ? "words" : "sentencepiece";
    out["beam"] = trained.config.translate.beam;
    out["weights"] = trained.weights;
    out["unseen"] = r.have_train ? to_json(r.unseen) : json(nullptr);
    out["skipped_lines"] = r.skipped_lines;
    std::cout << out.dump() << std::endl;
  } else {
    std::printf("model %s (%s tokens; weights %s)\n", args.model_dir.c_str(),
                words ? "word" : "subword", trained.weights.c_str());
    print_table("all", r.all);
    if (r.have_train) print_table("unseen sources", r.unseen);
  }
}

}  // namespace

int run_evaluation(const EvalArgs& args) {
  TranslateFlags flags;
  flags.beam = args.beam;
  flags.batch_size = args.batch_size;
  flags.threads = args.threads;
  flags.device = args.device;
  auto trained = load_trained_model(args.model_dir, with_flag_overrides(args.overrides, flags));
  set_threads(trained.config.translate.threads);
  data::ReadReport report;
  auto pairs = read_eval_pairs(args, trained, report);
  // Sources seen in training: the spa-eng corpus repeats ~18% of test sources in training,
  // so figures on the unseen subset measure generalisation.
  auto seen = training_sources(args, trained);
  std::vector<data::Pair> unseen;
  for (const auto& p : pairs) {
    if (!seen || !seen->count(p.src)) unseen.push_back(p);
  }
  std::map<std::string, std::string> translations;
  if (!args.no_translate) translations = translate_once(args, trained, pairs);
  int64_t batch_tokens = std::max<int64_t>(trained.config.train.batch_tokens, 4096);
  EvalResults results;
  results.all = evaluate_pairs(trained, pairs, translations, batch_tokens);
  results.unseen = evaluate_pairs(trained, unseen, translations, batch_tokens);
  results.have_train = seen.has_value();
  results.skipped_lines = report.skipped;
  print_results(args, trained, results);
  return kExitOk;
}

}  // namespace atento
