#include "app/scoring/classification_metrics.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>

namespace atento {

double roc_auc(const std::vector<double>& scores, const std::vector<bool>& labels) {
  if (scores.size() != labels.size()) throw std::invalid_argument("roc_auc: sizes differ");
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] < scores[b]; });
  double positive_rank_sum = 0.0;
  int64_t positives = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    while (j < order.size() && scores[order[j]] == scores[order[i]]) ++j;
    const double rank = 0.5 * static_cast<double>(i + 1 + j);  // average of ranks i+1..j
    for (size_t k = i; k < j; ++k) {
      if (labels[order[k]]) {
        positive_rank_sum += rank;
        ++positives;
      }
    }
    i = j;
  }
  const auto n_pos = static_cast<double>(positives);
  const auto n_neg = static_cast<double>(scores.size()) - n_pos;
  if (n_pos == 0 || n_neg == 0) return std::numeric_limits<double>::quiet_NaN();
  return (positive_rank_sum - n_pos * (n_pos + 1) / 2) / (n_pos * n_neg);
}

double best_f1_threshold(const std::vector<double>& scores, const std::vector<bool>& labels) {
  if (scores.size() != labels.size())
    throw std::invalid_argument("best_f1_threshold: sizes differ");
  const auto positives = std::count(labels.begin(), labels.end(), true);
  if (positives == 0) return 0.5;
  std::vector<size_t> order(scores.size());
  std::iota(order.begin(), order.end(), 0);
  std::sort(order.begin(), order.end(), [&](size_t a, size_t b) { return scores[a] > scores[b]; });
  // Keep the highest-scoring pairs, one run of equal scores at a time: F1 = 2 tp / (kept + pos).
  double best_f1 = -1.0, threshold = 0.5;
  int64_t tp = 0;
  for (size_t i = 0; i < order.size();) {
    size_t j = i;
    for (; j < order.size() && scores[order[j]] == scores[order[i]]; ++j) tp += labels[order[j]];
    const double f1 = 2.0 * static_cast<double>(tp) / static_cast<double>(j + positives);
    if (f1 > best_f1) {
      best_f1 = f1;
      const double kept = scores[order[i]];
      threshold = j < order.size() ? 0.5 * (kept + scores[order[j]]) : kept;
    }
    i = j;
  }
  return threshold;
}

BinaryMetrics binary_metrics(const std::vector<double>& scores, const std::vector<bool>& labels,
                             double threshold) {
  if (scores.size() != labels.size()) throw std::invalid_argument("binary_metrics: sizes differ");
  int64_t tp = 0, fp = 0, fn = 0, tn = 0;
  for (size_t i = 0; i < scores.size(); ++i) {
    const bool kept = scores[i] >= threshold;
    if (labels[i]) {
      (kept ? tp : fn)++;
    } else {
      (kept ? fp : tn)++;
    }
  }
  BinaryMetrics m;
  m.count = static_cast<int64_t>(scores.size());
  m.positives = tp + fn;
  auto ratio = [](int64_t a, int64_t b) { return b > 0 ? double(a) / double(b) : 0.0; };
  m.accuracy = ratio(tp + tn, m.count);
  m.precision = ratio(tp, tp + fp);
  m.recall = ratio(tp, tp + fn);
  m.f1 = m.precision + m.recall > 0 ? 2 * m.precision * m.recall / (m.precision + m.recall) : 0.0;
  m.roc_auc = roc_auc(scores, labels);
  return m;
}

}  // namespace atento
