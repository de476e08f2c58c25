#pragma once
// Paired bootstrap resampling (Koehn 2004), as sacreBLEU's --paired-bs computes it: draw the
// test set's segments with replacement many times, score a baseline and a system on the same
// draws from their per-segment statistics, and ask how often the resampled difference, centred
// on its mean, reaches the difference actually observed.

#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "app/scoring/metrics.h"
#include "app/scoring/signature.h"

namespace atento {

/// One segment's sufficient statistics for a metric, flattened (BLEU: 10 counts; chrF: 3 per
/// order).
using SegmentStats = std::vector<int64_t>;

/// A metric's corpus score from statistics summed over segments.
using StatsScore = std::function<double(const SegmentStats&)>;

/// A system's score, and the mean and 95% interval of its resampled scores.
struct BootstrapEstimate {
  double score = 0;    ///< on the real test set
  double mean = 0;     ///< of the resampled scores
  double ci_low = 0;   ///< the 2.5% point of the resampled scores (sacreBLEU's n/40-th)
  double ci_high = 0;  ///< the 97.5% point
  /// sacreBLEU's "± CI": half the interval's width.
  double ci_half_width() const { return 0.5 * (ci_high - ci_low); }
};

/// A baseline and a system compared on one metric.
struct PairedResult {
  BootstrapEstimate baseline;
  BootstrapEstimate system;
  /// (1 + resamples whose centred |system - baseline| reaches the observed one) /
  /// (1 + resamples). sacreBLEU counts strictly larger differences only, which makes a system
  /// compared with itself "significant" at p = 1/(n+1); counting ties (the usual definition of
  /// a p-value) gives it p = 1. The two agree whenever no resampled difference equals the
  /// observed one exactly.
  double p_value = 1;
};

/// The paired test on per-segment statistics (baseline[i] and system[i] belong to segment i).
/// The segment draws depend only on settings.seed and the number of segments, so every metric
/// of a comparison sees the same draws and a run is reproducible. Throws std::invalid_argument
/// when the systems differ in length, are empty, or resamples < 1.
PairedResult paired_bootstrap(const std::vector<SegmentStats>& baseline,
                              const std::vector<SegmentStats>& system, const StatsScore& score,
                              const BootstrapSettings& settings);

/// One metric's comparison of two systems, with its name and signature (bs and seed included).
struct MetricComparison {
  std::string metric;     ///< "BLEU", "chrF2", "chrF2++"
  std::string signature;  ///< sacreBLEU-style, with bs:N|seed:S
  PairedResult result;
};

/// BLEU and chrF (with `chrf`'s orders) of `system` against `baseline` on the same references.
std::vector<MetricComparison> compare_systems(const std::vector<std::string>& baseline,
                                              const std::vector<std::string>& system,
                                              const std::vector<std::vector<std::string>>& refs,
                                              const ChrfOptions& chrf,
                                              const BootstrapSettings& settings);

}  // namespace atento
