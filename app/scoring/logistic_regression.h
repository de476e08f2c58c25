#pragma once
// A logistic regression over a few features (the pair filter's score combination): standardised
// features, an L2 penalty, Newton's method. Small dense algebra, no library.

#include <cstdint>
#include <vector>

namespace atento {

/// 1 / (1 + e^−z), without overflow for large |z|.
double sigmoid(double z);

/// p(positive | x) = sigmoid(bias + Σ weights[j] · (x[j] − mean[j]) / scale[j]).
struct LogisticModel {
  std::vector<double> weights;  ///< one per feature, on the standardised features
  double bias = 0.0;
  std::vector<double> mean;   ///< each feature's mean on the fitting data
  std::vector<double> scale;  ///< each feature's standard deviation there (1 when constant)
  /// The log-odds of `x` (one value per feature); throws std::invalid_argument on a size mismatch.
  double logit(const std::vector<double>& x) const;
  /// sigmoid(logit(x)).
  double probability(const std::vector<double>& x) const;
};

struct LogisticFit {
  /// L2 penalty on the standardised weights (not the bias), per example: keeps the weights
  /// finite on separable data.
  double l2 = 1e-3;
  int64_t max_iterations = 100;
  double tolerance = 1e-10;  ///< stop when no weight moves more than this
};

/// Fits `rows` (each the same number of features, all finite) to `labels` (true = positive).
/// Throws std::invalid_argument for no rows, a size mismatch, a non-finite feature, or labels
/// all of one class.
LogisticModel fit_logistic_regression(const std::vector<std::vector<double>>& rows,
                                      const std::vector<bool>& labels, const LogisticFit& fit = {});

}  // namespace atento
