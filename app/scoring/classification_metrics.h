#pragma once
// Figures of a binary classifier (the pair filter): precision, recall and F1 at a threshold,
// and ROC-AUC over all thresholds.

#include <cstdint>
#include <vector>

namespace atento {

struct BinaryMetrics {
  int64_t count = 0;
  int64_t positives = 0;
  double accuracy = 0.0;
  double precision = 0.0;  ///< of the pairs kept (score ≥ threshold), the share that are positive
  double recall = 0.0;     ///< of the positives, the share kept
  double f1 = 0.0;
  /// Probability that a random positive scores above a random negative (ties count half);
  /// NaN without both classes.
  double roc_auc = 0.0;
};

/// Figures of `scores` against `labels` (true = positive), one each; a pair is predicted
/// positive when its score is at least `threshold`. Precision/recall/F1 are 0 when undefined.
BinaryMetrics binary_metrics(const std::vector<double>& scores, const std::vector<bool>& labels,
                             double threshold);

/// The threshold with the highest F1 on `scores` against `labels`: halfway between the lowest
/// score kept and the highest one below it (so that scores between the two, on other data, fall
/// on the side nearer to them), or that lowest score when nothing is below it; ties in F1 go to
/// the higher threshold. 0.5 when there is no positive.
double best_f1_threshold(const std::vector<double>& scores, const std::vector<bool>& labels);

/// ROC-AUC alone (Mann-Whitney U over average ranks); NaN without both classes.
double roc_auc(const std::vector<double>& scores, const std::vector<bool>& labels);

}  // namespace atento
