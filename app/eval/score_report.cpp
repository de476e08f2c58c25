#include "app/eval/score_report.h"

#include <cstdio>
#include <stdexcept>

#include "app/scoring/signature.h"
#include "data/text_io.h"

namespace atento {
namespace {

using nlohmann::json;

/// Significance level of the '*' sacreBLEU puts beside a p-value.
constexpr double kSignificance = 0.05;

/// --per-sentence: one line per sentence, "sentence BLEU<TAB>sentence chrF".
void write_per_sentence(const std::string& path, const std::vector<std::string>& hyps,
                        const std::vector<std::vector<std::string>>& refs,
                        const ChrfOptions& chrf) {
  std::string text;
  char line[64];
  for (size_t i = 0; i < hyps.size(); ++i) {
    std::snprintf(line, sizeof line, "%.4f\t%.4f\n", sentence_bleu(hyps[i], refs[i]),
                  sentence_chrf(hyps[i], refs[i], chrf));
    text += line;
  }
  data::write_file_atomically(path, text);
}

json estimate_json(const BootstrapEstimate& e) {
  return {{"score", e.score},
          {"mean", e.mean},
          {"ci", e.ci_half_width()},
          {"ci_low", e.ci_low},
          {"ci_high", e.ci_high}};
}

void print_estimate(const char* role, const std::string& name, const BootstrapEstimate& e) {
  std::printf("  %-8s %6.2f  (mean %6.2f ± %.2f, 95%% interval %.2f-%.2f)  %s", role, e.score,
              e.mean, e.ci_half_width(), e.ci_low, e.ci_high, name.c_str());
}

}  // namespace

std::vector<std::string> read_hypotheses(const std::string& path) { return data::read_lines(path); }

ScoreReport score_translations(const std::vector<std::string>& hyps,
                               const std::vector<std::vector<std::string>>& refs,
                               const std::string& baseline_name, const ScoreOptions& options) {
  ScoreReport report;
  report.sentences = static_cast<int64_t>(hyps.size());
  report.baseline_name = baseline_name;
  report.bleu = corpus_bleu(hyps, refs);
  report.chrf = corpus_chrf(hyps, refs, options.chrf);
  report.chrf_name = chrf_name(options.chrf);
  SignatureContext context;
  context.nrefs = nrefs_field(refs);
  report.bleu_signature = bleu_signature(context);
  report.chrf_signature = chrf_signature(context, options.chrf);
  if (!options.per_sentence.empty())
    write_per_sentence(options.per_sentence, hyps, refs, options.chrf);
  if (!options.paired_bs.empty()) {
    const auto other = read_hypotheses(options.paired_bs);
    if (other.size() != hyps.size()) {
      throw std::runtime_error(options.paired_bs + " has " + std::to_string(other.size()) +
                               " lines but " + baseline_name + " has " +
                               std::to_string(hyps.size()) +
                               " translations; --paired-bs needs one line for each");
    }
    report.system_name = options.paired_bs;
    report.bootstrap = options.bootstrap;
    report.comparison = compare_systems(hyps, other, refs, options.chrf, options.bootstrap);
  }
  return report;
}

void add_to_json(const ScoreReport& r, json& out) {
  out["bleu"] = r.bleu.score;
  out["bleu_signature"] = r.bleu_signature;
  out["bleu_details"] = {{"precisions", r.bleu.precisions},
                         {"brevity_penalty", r.bleu.brevity_penalty},
                         {"hyp_len", r.bleu.hyp_len},
                         {"ref_len", r.bleu.ref_len}};
  out["chrf"] = r.chrf;
  out["chrf_name"] = r.chrf_name;
  out["chrf_signature"] = r.chrf_signature;
  if (r.comparison.empty()) return;
  json paired = {{"baseline", r.baseline_name},
                 {"system", r.system_name},
                 {"resamples", r.bootstrap.resamples},
                 {"seed", r.bootstrap.seed}};
  for (const auto& m : r.comparison) {
    const std::string key = m.metric == "BLEU" ? "bleu" : "chrf";
    paired[key] = {{"name", m.metric},
                   {"signature", m.signature},
                   {"baseline", estimate_json(m.result.baseline)},
                   {"system", estimate_json(m.result.system)},
                   {"p_value", m.result.p_value},
                   {"significant", m.result.p_value < kSignificance}};
  }
  out["paired_bs"] = paired;
}

void print_report(const ScoreReport& r) {
  std::printf("BLEU|%s = %.2f %.1f/%.1f/%.1f/%.1f (BP = %.3f hyp_len = %lld ref_len = %lld)\n",
              r.bleu_signature.c_str(), r.bleu.score, r.bleu.precisions[0], r.bleu.precisions[1],
              r.bleu.precisions[2], r.bleu.precisions[3], r.bleu.brevity_penalty,
              static_cast<long long>(r.bleu.hyp_len), static_cast<long long>(r.bleu.ref_len));
  std::printf("%s|%s = %.2f\n", r.chrf_name.c_str(), r.chrf_signature.c_str(), r.chrf);
  if (r.comparison.empty()) return;
  std::printf("paired bootstrap resampling (p: the system against the baseline; * p < %.2f)\n",
              kSignificance);
  for (const auto& m : r.comparison) {
    std::printf("%s|%s\n", m.metric.c_str(), m.signature.c_str());
    print_estimate("baseline", r.baseline_name, m.result.baseline);
    std::printf("\n");
    print_estimate("system", r.system_name, m.result.system);
    std::printf("  p = %.4f%s\n", m.result.p_value, m.result.p_value < kSignificance ? " *" : "");
  }
}

}  // namespace atento
