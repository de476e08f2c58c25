#pragma once
// What atento-eval reports about translations scored against references, whoever made them (the
// model, or a file given with --hyps): corpus BLEU and chrF with their sacreBLEU-style
// signatures, per-sentence scores (--per-sentence), and a paired bootstrap comparison with a
// second system (--paired-bs).

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/scoring/metrics.h"
#include "app/scoring/paired_bootstrap.h"

namespace atento {

/// The settings of the reference-based scores (atento-eval's flags).
struct ScoreOptions {
  ChrfOptions chrf;             ///< --chrf-word-order
  std::string per_sentence;     ///< --per-sentence FILE; empty = none
  std::string paired_bs;        ///< --paired-bs OTHER_HYPS; empty = no comparison
  BootstrapSettings bootstrap;  ///< --paired-bs-n, --bs-seed
};

/// Corpus scores of one system, and its comparison with another when asked for.
struct ScoreReport {
  int64_t sentences = 0;
  BleuResult bleu{};
  double chrf = 0;
  std::string chrf_name;  ///< "chrF2", "chrF2++"
  std::string bleu_signature;
  std::string chrf_signature;
  std::string baseline_name;                 ///< who made the scored translations
  std::string system_name;                   ///< --paired-bs's file
  BootstrapSettings bootstrap;               ///< the comparison's resamples and seed
  std::vector<MetricComparison> comparison;  ///< empty without --paired-bs
};

/// Scores `hyps` against `refs` (refs[i]: every reference of hyps[i]); writes the per-sentence
/// file and runs the paired test when `options` ask for them. `baseline_name` names `hyps` in
/// the comparison. Throws std::runtime_error naming the file when --paired-bs has another
/// number of lines than `hyps`, or a file cannot be read or written.
ScoreReport score_translations(const std::vector<std::string>& hyps,
                               const std::vector<std::vector<std::string>>& refs,
                               const std::string& baseline_name, const ScoreOptions& options);

/// Adds bleu, chrf, their signatures and names, the BLEU details and "paired_bs" to `out`.
void add_to_json(const ScoreReport& report, nlohmann::json& out);

/// sacreBLEU's lines ("BLEU|signature = 23.45 …", "chrF2|signature = 50.12"), then the paired
/// comparison as a small table, on stdout.
void print_report(const ScoreReport& report);

/// The lines of a hypothesis file (LF or CRLF ends); throws std::runtime_error naming it.
std::vector<std::string> read_hypotheses(const std::string& path);

}  // namespace atento
