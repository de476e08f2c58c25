#include "app/scoring/logistic_regression.h"

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>

namespace atento {

double sigmoid(double z) {
  return z >= 0 ? 1.0 / (1.0 + std::exp(-z)) : std::exp(z) / (1.0 + std::exp(z));
}

namespace {

void check_rows(const std::vector<std::vector<double>>& rows, const std::vector<bool>& labels) {
  if (rows.empty()) throw std::invalid_argument("logistic regression: no examples");
  if (rows.size() != labels.size()) {
    throw std::invalid_argument("logistic regression: " + std::to_string(rows.size()) +
                                " examples but " + std::to_string(labels.size()) + " labels");
  }
  const size_t width = rows[0].size();
  for (const auto& row : rows) {
    if (row.size() != width) throw std::invalid_argument("logistic regression: ragged features");
    for (double v : row) {
      if (!std::isfinite(v)) throw std::invalid_argument("logistic regression: non-finite feature");
    }
  }
  const auto positives = std::count(labels.begin(), labels.end(), true);
  if (positives == 0 || positives == static_cast<long>(labels.size())) {
    throw std::invalid_argument("logistic regression: the labels are all of one class");
  }
}

/// Solves a·x = b (a square, symmetric positive definite here) by Gaussian elimination with
/// partial pivoting; a and b are overwritten.
std::vector<double> solve(std::vector<std::vector<double>> a, std::vector<double> b) {
  const size_t n = b.size();
  for (size_t col = 0; col < n; ++col) {
    size_t pivot = col;
    for (size_t r = col + 1; r < n; ++r) {
      if (std::abs(a[r][col]) > std::abs(a[pivot][col])) pivot = r;
    }
    std::swap(a[col], a[pivot]);
    std::swap(b[col], b[pivot]);
    if (std::abs(a[col][col]) < 1e-300) throw std::runtime_error("logistic regression: singular");
    for (size_t r = col + 1; r < n; ++r) {
      const double f = a[r][col] / a[col][col];
      for (size_t c = col; c < n; ++c) a[r][c] -= f * a[col][c];
      b[r] -= f * b[col];
    }
  }
  std::vector<double> x(n);
  for (size_t i = n; i-- > 0;) {
    double s = b[i];
    for (size_t c = i + 1; c < n; ++c) s -= a[i][c] * x[c];
    x[i] = s / a[i][i];
  }
  return x;
}

/// The penalised negative log-likelihood (summed) of weights `w` on the design `x`.
double objective(const std::vector<std::vector<double>>& x, const std::vector<bool>& labels,
                 const std::vector<double>& w, double penalty) {
  double total = 0.0;
  for (size_t i = 0; i < x.size(); ++i) {
    double z = 0.0;
    for (size_t j = 0; j < w.size(); ++j) z += w[j] * x[i][j];
    const double m = labels[i] ? -z : z;  // −log sigmoid(±z) = log(1 + e^m), stably
    total += m > 0 ? m + std::log1p(std::exp(-m)) : std::log1p(std::exp(m));
  }
  for (size_t j = 0; j + 1 < w.size(); ++j) total += 0.5 * penalty * w[j] * w[j];
  return total;
}

}  // namespace

double LogisticModel::logit(const std::vector<double>& x) const {
  if (x.size() != weights.size() || mean.size() != weights.size() ||
      scale.size() != weights.size()) {
    throw std::invalid_argument("logistic model: " + std::to_string(x.size()) + " features for " +
                                std::to_string(weights.size()) + " weights");
  }
  double z = bias;
  for (size_t j = 0; j < x.size(); ++j) z += weights[j] * (x[j] - mean[j]) / scale[j];
  return z;
}

double LogisticModel::probability(const std::vector<double>& x) const { return sigmoid(logit(x)); }

LogisticModel fit_logistic_regression(const std::vector<std::vector<double>>& rows,
                                      const std::vector<bool>& labels, const LogisticFit& fit) {
  check_rows(rows, labels);
  const size_t n = rows.size(), d = rows[0].size();
  LogisticModel model;
  model.mean.assign(d, 0.0);
  model.scale.assign(d, 0.0);
  for (const auto& row : rows) {
    for (size_t j = 0; j < d; ++j) model.mean[j] += row[j] / static_cast<double>(n);
  }
  for (const auto& row : rows) {
    for (size_t j = 0; j < d; ++j) {
      model.scale[j] +=
          (row[j] - model.mean[j]) * (row[j] - model.mean[j]) / static_cast<double>(n);
    }
  }
  for (auto& s : model.scale) s = s > 1e-24 ? std::sqrt(s) : 1.0;
  // Standardised design with the bias as column d.
  std::vector<std::vector<double>> x(n, std::vector<double>(d + 1, 1.0));
  for (size_t i = 0; i < n; ++i) {
    for (size_t j = 0; j < d; ++j) x[i][j] = (rows[i][j] - model.mean[j]) / model.scale[j];
  }
  std::vector<double> w(d + 1, 0.0);
  const double penalty = fit.l2 * static_cast<double>(n);
  for (int64_t iteration = 0; iteration < fit.max_iterations; ++iteration) {
    // Gradient and Hessian of the mean negative log-likelihood plus the penalty (scaled by n).
    std::vector<double> gradient(d + 1, 0.0);
    std::vector<std::vector<double>> hessian(d + 1, std::vector<double>(d + 1, 0.0));
    for (size_t i = 0; i < n; ++i) {
      double z = 0.0;
      for (size_t j = 0; j <= d; ++j) z += w[j] * x[i][j];
      const double p = sigmoid(z), residual = p - (labels[i] ? 1.0 : 0.0);
      const double curvature = std::max(p * (1.0 - p), 1e-12);
      for (size_t j = 0; j <= d; ++j) {
        gradient[j] += residual * x[i][j];
        for (size_t k = 0; k <= d; ++k) hessian[j][k] += curvature * x[i][j] * x[i][k];
      }
    }
    for (size_t j = 0; j < d; ++j) {
      gradient[j] += penalty * w[j];
      hessian[j][j] += penalty;
    }
    hessian[d][d] += 1e-9 * static_cast<double>(n);  // the bias alone on separable data
    // A Newton step, halved until the objective does not rise (it is convex, so this ends).
    auto step = solve(hessian, gradient);
    const double before = objective(x, labels, w, penalty);
    std::vector<double> next(d + 1);
    for (int halving = 0; halving < 40; ++halving) {
      for (size_t j = 0; j <= d; ++j) next[j] = w[j] - step[j];
      if (objective(x, labels, next, penalty) <= before) break;
      for (auto& s : step) s *= 0.5;
    }
    double largest = 0.0;
    for (size_t j = 0; j <= d; ++j) largest = std::max(largest, std::abs(next[j] - w[j]));
    w = next;
    if (largest < fit.tolerance) break;
  }
  model.weights.assign(w.begin(), w.begin() + static_cast<long>(d));
  model.bias = w[d];
  return model;
}

}  // namespace atento
