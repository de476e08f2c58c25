#include "app/eval/evaluator.h"

#include <torch/torch.h>

#include <cmath>
#include <cstdio>
#include <iostream>
#include <map>
#include <nlohmann/json.hpp>
#include <optional>
#include <utility>
#include <vector>

#include "app/common/config.h"
#include "app/common/files.h"
#include "app/common/precision.h"
#include "app/common/runtime.h"
#include "app/eval/eval_subsets.h"
#include "app/model_dir/model_dir.h"
#include "app/scoring/metrics.h"
#include "app/scoring/reference_sets.h"
#include "app/scoring/teacher_forcing.h"
#include "app/translate/translator.h"
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
  double short_outputs = NAN;     ///< share of translations that are short for their source
  double short_references = NAN;  ///< the same share among the reference translations
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
          {"chrf", number(f.chrf)},
          {"short_outputs", number(f.short_outputs)},
          {"short_references", number(f.short_references)}};
}

/// Shares of short translations and of short references (eval_subsets.h), per source and per
/// pair.
void add_short_shares(EvalFigures& f, const TrainingProfile& profile,
                      const std::vector<data::Pair>& pairs, const std::vector<std::string>& order,
                      const std::vector<std::string>& hyps) {
  int64_t short_hyps = 0, short_refs = 0;
  for (size_t i = 0; i < order.size(); ++i) short_hyps += is_short(profile, order[i], hyps[i]);
  for (const auto& p : pairs) short_refs += is_short(profile, p.src, p.tgt);
  f.short_outputs = static_cast<double>(short_hyps) / static_cast<double>(order.size());
  f.short_references = static_cast<double>(short_refs) / static_cast<double>(pairs.size());
}

/// Translations are made once per distinct English source; every Spanish side sharing that
/// source is one of its references.
EvalFigures evaluate_pairs(TrainedModel& trained, const std::vector<data::Pair>& pairs,
                           const std::map<std::string, std::string>& translations,
                           const TrainingProfile* profile, int64_t batch_tokens,
                           const ChrfOptions& chrf) {
  EvalFigures f;
  f.pairs = static_cast<int64_t>(pairs.size());
  if (pairs.empty()) return f;
  f.teacher_forced =
      evaluate_teacher_forced(trained.model, encode_pairs(*trained.vocab, pairs), batch_tokens,
                              trained.device, trained.config.translate.precision);
  if (translations.empty()) return f;
  const ReferenceSets sets = reference_sets(pairs);
  const auto& order = sets.sources;
  std::vector<std::string> hyps;
  for (const auto& src : order) hyps.push_back(translations.at(src));
  f.sources = static_cast<int64_t>(order.size());
  f.bleu = corpus_bleu(hyps, sets.references).score;
  f.chrf = corpus_chrf(hyps, sets.references, chrf);
  if (profile != nullptr) add_short_shares(f, *profile, pairs, order, hyps);
  return f;
}

void print_table(const std::string& name, const EvalFigures& f) {
  std::printf("%-22s pairs %6lld  next-word acc %6.2f%%  loss %.4f  ppl %8.2f", name.c_str(),
              static_cast<long long>(f.pairs), 100.0 * f.teacher_forced.accuracy(),
              f.teacher_forced.loss(), std::exp(f.teacher_forced.loss()));
  if (!std::isnan(f.bleu)) std::printf("  BLEU %6.2f  chrF %6.2f", f.bleu, f.chrf);
  if (!std::isnan(f.short_outputs)) {
    std::printf("  short %5.2f%% (refs %5.2f%%)", 100.0 * f.short_outputs,
                100.0 * f.short_references);
  }
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

/// The profile of the model's train.tsv; nullopt when the directory has none.
std::optional<TrainingProfile> training_profile(const EvalArgs& args, const TrainedModel& trained) {
  auto train_path = join_path(args.model_dir, model_files::kTrain);
  if (!file_exists(train_path)) return std::nullopt;
  data::CorpusOptions options = trained.config.data;
  options.strict = false;
  return profile_training(data::read_pairs(train_path, options));
}

/// --hyps with a model: one line per distinct source, checked against their number.
std::vector<std::string> read_translations(const EvalArgs& args, size_t sources) {
  auto texts = read_hypotheses(args.hyps);
  if (texts.size() != sources) {
    throw std::runtime_error(args.hyps + " has " + std::to_string(texts.size()) + " lines but " +
                             args.pairs + " has " + std::to_string(sources) +
                             " distinct English sources; --hyps needs one line for each, in "
                             "first-occurrence order (as --output writes them)");
  }
  return texts;
}

/// The model's best translation of each source (empty when the search found none).
std::vector<std::string> model_translations(TrainedModel& trained,
                                            const std::vector<std::string>& order) {
  auto search = search_options(trained);
  search.n_best = 1;
  return translate_texts(trained, order, search);
}

/// One translation per distinct source, in first-occurrence order, and its references.
struct Translations {
  ReferenceSets sets;
  std::vector<std::string> texts;
};

/// The model's translations (also written to --output when given), or --hyps.
Translations translate_once(const EvalArgs& args, TrainedModel& trained,
                            const std::vector<data::Pair>& pairs) {
  Translations t;
  t.sets = reference_sets(pairs);
  t.texts = args.hyps.empty() ? model_translations(trained, t.sets.sources)
                              : read_translations(args, t.sets.sources.size());
  if (!args.output.empty()) {
    std::string lines;
    for (const auto& text : t.texts) lines += text + "\n";
    data::write_file_atomically(args.output, lines);
  }
  return t;
}

/// The figures of every pair and of each subset (eval_subsets.h).
struct EvalResults {
  EvalFigures all;
  std::vector<std::pair<Subset, EvalFigures>> subsets;  ///< empty without train.tsv
  int64_t skipped_lines = 0;
  std::optional<ScoreReport> scores;  ///< signatures, comparison; none with --no-translate
};

void print_results(const EvalArgs& args, const TrainedModel& trained, const EvalResults& r) {
  bool words = trained.config.tokenizer.kind == data::TokenizerKind::kWords;
  // The arithmetic of the translations (auto resolved on this machine): int8 or bf16 decoding
  // can move BLEU by tenths, so a figure compares only with figures of its precision.
  const char* precision = precision_name(
      resolve_decoding_precision(trained.config.translate.precision, trained.device));
  if (args.json) {
    json out = to_json(r.all);
    out["tokenizer"] = words ? "words" : "sentencepiece";
    out["beam"] = trained.config.translate.beam;
    out["precision"] = precision;
    out["weights"] = trained.weights;
    for (Subset subset : kSubsets) out[subset_name(subset)] = nullptr;
    for (const auto& [subset, figures] : r.subsets) out[subset_name(subset)] = to_json(figures);
    out["skipped_lines"] = r.skipped_lines;
    if (r.scores) add_to_json(*r.scores, out);
    std::cout << out.dump() << std::endl;
  } else {
    std::printf("model %s (%s tokens; weights %s; %s arithmetic)\n", args.model_dir.c_str(),
                words ? "word" : "subword", trained.weights.c_str(), precision);
    print_table("all", r.all);
    for (const auto& [subset, figures] : r.subsets) print_table(subset_name(subset), figures);
    if (r.scores) print_report(*r.scores);
  }
}

/// Scores every pair, then each subset of them.
EvalResults evaluate_all(TrainedModel& trained, const std::vector<data::Pair>& pairs,
                         const std::map<std::string, std::string>& translations,
                         const std::optional<TrainingProfile>& profile, const ChrfOptions& chrf) {
  const TrainingProfile* known = profile ? &*profile : nullptr;
  int64_t batch_tokens = std::max<int64_t>(trained.config.train.batch_tokens, 4096);
  EvalResults results;
  results.all = evaluate_pairs(trained, pairs, translations, known, batch_tokens, chrf);
  if (!known) return results;
  for (Subset subset : kSubsets) {
    std::vector<data::Pair> kept;
    for (const auto& p : pairs) {
      if (in_subset(*known, p, subset)) kept.push_back(p);
    }
    results.subsets.emplace_back(
        subset, evaluate_pairs(trained, kept, translations, known, batch_tokens, chrf));
  }
  return results;
}

/// --refs: one reference set per line, as many references as files (empty lines are no
/// reference, as sacreBLEU's padding); each file must match --hyps line for line.
std::vector<std::vector<std::string>> read_reference_sets(const EvalArgs& args, size_t lines) {
  std::vector<std::vector<std::string>> sets(lines);
  for (const auto& path : args.refs) {
    auto refs = data::read_lines(path);
    if (refs.size() != lines) {
      throw std::runtime_error(args.hyps + " has " + std::to_string(lines) + " lines but " + path +
                               " has " + std::to_string(refs.size()) +
                               "; --hyps and --refs must match line for line");
    }
    for (size_t i = 0; i < lines; ++i) sets[i].push_back(std::move(refs[i]));
  }
  for (size_t i = 0; i < lines; ++i) {
    bool any = false;
    for (const auto& ref : sets[i]) any = any || !ref.empty();
    if (!any) {
      throw std::runtime_error(args.refs.front() + ":" + std::to_string(i + 1) +
                               ": empty reference (every line of --hyps needs one)");
    }
  }
  return sets;
}

/// Without a model: --hyps against --refs.
int score_files(const EvalArgs& args) {
  if (args.hyps.empty() || args.refs.empty()) {
    throw ConfigError(
        "nothing to evaluate: give --model DIR --pairs FILE, or --hyps FILE "
        "--refs FILE to score translations without a model");
  }
  const auto hyps = read_hypotheses(args.hyps);
  const auto refs = read_reference_sets(args, hyps.size());
  if (hyps.empty()) throw std::runtime_error(args.hyps + ": no lines to score");
  const ScoreReport report = score_translations(hyps, refs, args.hyps, args.scores);
  if (args.json) {
    json out = {{"hyps", args.hyps}, {"refs", args.refs}, {"sentences", report.sentences}};
    add_to_json(report, out);
    std::cout << out.dump() << std::endl;
  } else {
    std::printf("hyps %s (%lld sentences)\n", args.hyps.c_str(),
                static_cast<long long>(report.sentences));
    print_report(report);
  }
  return kExitOk;
}

}  // namespace

int run_evaluation(const EvalArgs& args) {
  if (args.model_dir.empty()) return score_files(args);
  auto trained =
      load_trained_model(args.model_dir, with_flag_overrides(args.overrides, args.flags));
  set_threads(trained.config.translate.threads);
  data::ReadReport report;
  auto pairs = read_eval_pairs(args, trained, report);
  // Figures on the subsets unlike training measure generalisation (eval_subsets.h).
  auto profile = training_profile(args, trained);
  if (!args.short_outputs.empty() && !profile) {
    throw ConfigError("--short-outputs needs the training split to tell what is short: " +
                      join_path(args.model_dir, model_files::kTrain) + " does not exist");
  }
  std::map<std::string, std::string> translations;
  Translations made;
  if (!args.no_translate) {
    made = translate_once(args, trained, pairs);
    for (size_t i = 0; i < made.texts.size(); ++i)
      translations[made.sets.sources[i]] = made.texts[i];
    if (!args.short_outputs.empty()) {
      data::write_file_atomically(
          args.short_outputs,
          short_output_lines(*profile, made.sets.sources, made.sets.references, made.texts));
    }
  }
  EvalResults results = evaluate_all(trained, pairs, translations, profile, args.scores.chrf);
  results.skipped_lines = report.skipped;
  if (!args.no_translate && !pairs.empty()) {
    const std::string name = args.hyps.empty() ? "model " + args.model_dir : args.hyps;
    results.scores = score_translations(made.texts, made.sets.references, name, args.scores);
  }
  print_results(args, trained, results);
  return kExitOk;
}

}  // namespace atento
