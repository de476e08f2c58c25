// Precision, recall, F1 and ROC-AUC of the pair filter, checked on hand-computed cases.

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <vector>

#include "app/scoring/classification_metrics.h"

namespace atento {
namespace {

TEST(ClassificationMetrics, CountsAtTheThreshold) {
  // Kept (≥ 0.5): 0.9 (pos), 0.8 (neg), 0.5 (pos); dropped: 0.4 (pos), 0.1 (neg).
  std::vector<double> scores{0.9, 0.8, 0.5, 0.4, 0.1};
  std::vector<bool> labels{true, false, true, true, false};
  auto m = binary_metrics(scores, labels, 0.5);
  EXPECT_EQ(m.count, 5);
  EXPECT_EQ(m.positives, 3);
  EXPECT_DOUBLE_EQ(m.precision, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.recall, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.f1, 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(m.accuracy, 3.0 / 5.0);
  // Pairs (pos, neg) ordered right: 0.9>0.8, 0.9>0.1, 0.5>0.1, 0.4>0.1 → 4 of 6.
  EXPECT_DOUBLE_EQ(m.roc_auc, 4.0 / 6.0);
}

TEST(ClassificationMetrics, AucIsOneWhenSeparatedAndHalfWhenTied) {
  EXPECT_DOUBLE_EQ(roc_auc({0.1, 0.2, 0.8, 0.9}, {false, false, true, true}), 1.0);
  EXPECT_DOUBLE_EQ(roc_auc({0.9, 0.8, 0.2, 0.1}, {false, false, true, true}), 0.0);
  EXPECT_DOUBLE_EQ(roc_auc({0.5, 0.5, 0.5}, {true, false, true}), 0.5);
  EXPECT_TRUE(std::isnan(roc_auc({0.5, 0.7}, {true, true})));
}

TEST(ClassificationMetrics, UndefinedRatiosAreZero) {
  auto m = binary_metrics({0.1, 0.2}, {false, false}, 0.5);
  EXPECT_EQ(m.precision, 0.0);
  EXPECT_EQ(m.recall, 0.0);
  EXPECT_EQ(m.f1, 0.0);
  EXPECT_EQ(m.accuracy, 1.0);
}

TEST(ClassificationMetrics, BestF1ThresholdLiesBetweenTheLastKeptAndTheNextScore) {
  EXPECT_DOUBLE_EQ(best_f1_threshold({0.9, 0.8, 0.3, 0.2}, {true, true, false, false}), 0.55);
  // Keeping the top 1..5: F1 2/4, 2/5, 4/6, 6/7, 6/8; the best keeps 0.4 and drops 0.1.
  std::vector<double> scores{0.9, 0.8, 0.5, 0.4, 0.1};
  std::vector<bool> labels{true, false, true, true, false};
  const double t = best_f1_threshold(scores, labels);
  EXPECT_DOUBLE_EQ(t, 0.25);
  EXPECT_DOUBLE_EQ(binary_metrics(scores, labels, t).f1, 6.0 / 7.0);
}

TEST(ClassificationMetrics, BestF1ThresholdKeepsTiesTogetherAndHandlesEdges) {
  // 0.7 is one positive and one negative: kept together (F1 2/3), never split.
  EXPECT_DOUBLE_EQ(best_f1_threshold({0.7, 0.7, 0.2}, {true, false, false}), 0.45);
  // Everything kept: the lowest score itself.
  EXPECT_DOUBLE_EQ(best_f1_threshold({0.6, 0.4}, {true, true}), 0.4);
  // Keeping the top 1 or all 4 both give F1 2/3: the higher threshold wins.
  EXPECT_DOUBLE_EQ(best_f1_threshold({0.9, 0.8, 0.7, 0.6}, {true, false, false, true}), 0.85);
  EXPECT_DOUBLE_EQ(best_f1_threshold({0.3, 0.2}, {false, false}), 0.5);
}

TEST(ClassificationMetrics, BestF1ThresholdBeatsEveryOtherThreshold) {
  std::vector<double> scores;
  std::vector<bool> labels;
  uint64_t x = 12345;
  for (int i = 0; i < 500; ++i) {
    x = x * 6364136223846793005ULL + 1442695040888963407ULL;
    const bool positive = (x >> 33) % 3 != 0;
    const double noise = static_cast<double>((x >> 11) % 1000) / 1000.0;
    labels.push_back(positive);
    scores.push_back(0.5 * noise + (positive ? 0.35 : 0.0));
  }
  const double best = binary_metrics(scores, labels, best_f1_threshold(scores, labels)).f1;
  for (int k = 0; k <= 100; ++k) {
    EXPECT_GE(best, binary_metrics(scores, labels, k / 100.0).f1) << "threshold " << k / 100.0;
  }
  EXPECT_GT(best, binary_metrics(scores, labels, 0.5).f1);
}

}  // namespace
}  // namespace atento
