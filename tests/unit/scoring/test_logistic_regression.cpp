// The logistic regression of the pair filter's score combination, on synthetic data.

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

#include "app/scoring/logistic_regression.h"

namespace atento {
namespace {

/// Points on both sides of the line 2·x0 − x1 = 1 (positives above), plus a feature that is
/// noise; separable by the first two features.
struct Synthetic {
  std::vector<std::vector<double>> rows;
  std::vector<bool> labels;
};

Synthetic separable() {
  Synthetic s;
  for (int i = 0; i < 200; ++i) {
    const double x0 = std::sin(i * 1.7) * 3.0, x1 = std::cos(i * 0.9) * 5.0 + 10.0;
    const double noise = std::sin(i * 12.345) * 100.0;
    const double margin = 2.0 * x0 - x1 / 5.0 - 1.0;
    if (std::abs(margin) < 0.5) continue;  // a clear gap either side of the line
    s.rows.push_back({x0, x1, noise});
    s.labels.push_back(margin > 0);
  }
  return s;
}

TEST(LogisticRegression, RecoversASeparatingDirection) {
  const auto s = separable();
  ASSERT_GT(s.rows.size(), 120u);
  const auto model = fit_logistic_regression(s.rows, s.labels);
  ASSERT_EQ(model.weights.size(), 3u);
  for (size_t i = 0; i < s.rows.size(); ++i) {
    EXPECT_EQ(model.probability(s.rows[i]) >= 0.5, s.labels[i]) << "example " << i;
  }
  // The direction in the original units: w_j / scale_j ∝ (2, −1/5, 0).
  const double w0 = model.weights[0] / model.scale[0], w1 = model.weights[1] / model.scale[1];
  const double w2 = model.weights[2] / model.scale[2];
  EXPECT_GT(w0, 0.0);
  EXPECT_LT(w1, 0.0);
  EXPECT_NEAR(w1 / w0, -0.1, 0.07);
  EXPECT_LT(std::abs(w2) * 100.0, std::abs(w0) * 3.0);           // the noise counts less than x0
  for (double w : model.weights) EXPECT_TRUE(std::isfinite(w));  // the penalty bounds them
}

TEST(LogisticRegression, OverlappingClassesGiveCalibratedOdds) {
  // x = 0: 1 positive in 4; x = 1: 3 in 4. The fit's probabilities approach those shares.
  std::vector<std::vector<double>> rows;
  std::vector<bool> labels;
  for (int k = 0; k < 100; ++k) {
    rows.push_back({0.0});
    labels.push_back(k % 4 == 0);
    rows.push_back({1.0});
    labels.push_back(k % 4 != 0);
  }
  LogisticFit fit;
  fit.l2 = 0.0;
  const auto model = fit_logistic_regression(rows, labels, fit);
  EXPECT_NEAR(model.probability({0.0}), 0.25, 1e-6);
  EXPECT_NEAR(model.probability({1.0}), 0.75, 1e-6);
  EXPECT_NEAR(model.logit({1.0}) - model.logit({0.0}), 2.0 * std::log(3.0), 1e-5);
}

TEST(LogisticRegression, ConstantFeatureIsHarmless) {
  std::vector<std::vector<double>> rows{{1.0, 7.0}, {2.0, 7.0}, {3.0, 7.0}, {4.0, 7.0}};
  const auto model = fit_logistic_regression(rows, {false, true, false, true});
  EXPECT_EQ(model.scale[1], 1.0);
  EXPECT_TRUE(std::isfinite(model.logit({2.5, 7.0})));
}

TEST(LogisticRegression, RefusesBadInput) {
  EXPECT_THROW(fit_logistic_regression({}, {}), std::invalid_argument);
  EXPECT_THROW(fit_logistic_regression({{1.0}, {2.0}}, {true}), std::invalid_argument);
  EXPECT_THROW(fit_logistic_regression({{1.0}, {2.0, 3.0}}, {true, false}), std::invalid_argument);
  EXPECT_THROW(fit_logistic_regression({{1.0}, {2.0}}, {true, true}), std::invalid_argument);
  EXPECT_THROW(fit_logistic_regression({{1.0}, {NAN}}, {true, false}), std::invalid_argument);
  const auto model = fit_logistic_regression({{1.0}, {2.0}}, {false, true});
  EXPECT_THROW(model.logit({1.0, 2.0}), std::invalid_argument);
}

TEST(LogisticRegression, SigmoidIsStableAtTheExtremes) {
  EXPECT_DOUBLE_EQ(sigmoid(0.0), 0.5);
  EXPECT_DOUBLE_EQ(sigmoid(1000.0), 1.0);
  EXPECT_DOUBLE_EQ(sigmoid(-1000.0), 0.0);
  EXPECT_NEAR(sigmoid(2.0) + sigmoid(-2.0), 1.0, 1e-15);
}

}  // namespace
}  // namespace atento
