#include "app/scoring/paired_bootstrap.h"

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <stdexcept>

#include "data/random.h"

namespace atento {
namespace {

// Mean and 95% interval of resampled scores, as sacreBLEU's estimate_ci: sorted, the
// (n/40)-th from each end.
void estimate_interval(std::vector<double> scores, BootstrapEstimate& out) {
  std::sort(scores.begin(), scores.end());
  const std::size_t lower = scores.size() / 40;
  const std::size_t upper = scores.size() - lower - 1;
  double sum = 0;
  for (double s : scores) sum += s;
  out.mean = sum / static_cast<double>(scores.size());
  out.ci_low = scores[lower];
  out.ci_high = scores[upper];
}

// Statistics summed over every segment.
SegmentStats sum_all(const std::vector<SegmentStats>& segments) {
  SegmentStats sum(segments.front().size(), 0);
  for (const auto& s : segments) {
    for (std::size_t k = 0; k < sum.size(); ++k) sum[k] += s[k];
  }
  return sum;
}

SegmentStats flatten(const BleuStats& s) {
  SegmentStats out{s.sys_len, s.ref_len};
  out.insert(out.end(), s.correct.begin(), s.correct.end());
  out.insert(out.end(), s.total.begin(), s.total.end());
  return out;
}

BleuStats unflatten(const SegmentStats& flat) {
  BleuStats s;
  s.sys_len = flat[0];
  s.ref_len = flat[1];
  for (std::size_t n = 0; n < s.correct.size(); ++n) {
    s.correct[n] = flat[2 + n];
    s.total[n] = flat[2 + s.correct.size() + n];
  }
  return s;
}

}  // namespace

PairedResult paired_bootstrap(const std::vector<SegmentStats>& baseline,
                              const std::vector<SegmentStats>& system, const StatsScore& score,
                              const BootstrapSettings& settings) {
  if (baseline.size() != system.size() || baseline.empty()) {
    throw std::invalid_argument(
        "paired bootstrap: needs two systems of the same, non-zero "
        "number of segments");
  }
  if (settings.resamples < 1) throw std::invalid_argument("paired bootstrap: resamples < 1");
  PairedResult result;
  result.baseline.score = score(sum_all(baseline));
  result.system.score = score(sum_all(system));
  const std::size_t n = baseline.size();
  const std::size_t width = baseline.front().size();
  data::SplitMix64 rng(settings.seed);
  std::vector<double> baseline_scores, system_scores, diffs;
  SegmentStats sum_b(width), sum_s(width);
  for (int64_t r = 0; r < settings.resamples; ++r) {
    std::fill(sum_b.begin(), sum_b.end(), 0);
    std::fill(sum_s.begin(), sum_s.end(), 0);
    for (std::size_t draw = 0; draw < n; ++draw) {
      const auto i = static_cast<std::size_t>(rng.below(n));
      for (std::size_t k = 0; k < width; ++k) {
        sum_b[k] += baseline[i][k];
        sum_s[k] += system[i][k];
      }
    }
    baseline_scores.push_back(score(sum_b));
    system_scores.push_back(score(sum_s));
    diffs.push_back(std::fabs(system_scores.back() - baseline_scores.back()));
  }
  estimate_interval(baseline_scores, result.baseline);
  estimate_interval(system_scores, result.system);
  // Under the null hypothesis the differences are centred on zero: shift them by their mean,
  // then count how often chance alone reaches the observed difference.
  double mean_diff = 0;
  for (double d : diffs) mean_diff += d;
  mean_diff /= static_cast<double>(diffs.size());
  const double observed = std::fabs(result.system.score - result.baseline.score);
  int64_t reached = 0;
  for (double d : diffs) reached += (d - mean_diff >= observed) ? 1 : 0;
  result.p_value = static_cast<double>(reached + 1) / static_cast<double>(settings.resamples + 1);
  return result;
}

std::vector<MetricComparison> compare_systems(const std::vector<std::string>& baseline,
                                              const std::vector<std::string>& system,
                                              const std::vector<std::vector<std::string>>& refs,
                                              const ChrfOptions& chrf,
                                              const BootstrapSettings& settings) {
  if (baseline.size() != refs.size() || system.size() != refs.size()) {
    throw std::invalid_argument("compare_systems: both systems need one line per reference set");
  }
  std::vector<SegmentStats> bleu_b, bleu_s, chrf_b, chrf_s;
  for (std::size_t i = 0; i < refs.size(); ++i) {
    bleu_b.push_back(flatten(bleu_stats(baseline[i], refs[i])));
    bleu_s.push_back(flatten(bleu_stats(system[i], refs[i])));
    chrf_b.push_back(chrf_stats(baseline[i], refs[i], chrf));
    chrf_s.push_back(chrf_stats(system[i], refs[i], chrf));
  }
  SignatureContext context;
  context.nrefs = nrefs_field(refs);
  context.bootstrap = settings;
  auto bleu_score = [](const SegmentStats& s) { return bleu_from_stats(unflatten(s)).score; };
  auto chrf_score = [&chrf](const SegmentStats& s) { return chrf_from_stats(s, chrf); };
  return {{"BLEU", bleu_signature(context), paired_bootstrap(bleu_b, bleu_s, bleu_score, settings)},
          {chrf_name(chrf), chrf_signature(context, chrf),
           paired_bootstrap(chrf_b, chrf_s, chrf_score, settings)}};
}

}  // namespace atento
