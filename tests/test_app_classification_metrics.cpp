// Precision, recall, F1 and ROC-AUC of the pair filter, checked on hand-computed cases.

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "app/classification_metrics.h"

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

}  // namespace
}  // namespace atento
