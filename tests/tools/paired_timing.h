#pragma once
// Timing two forms of one computation for the benchmark tools: rounds alternate the two, so a
// shared machine's drift falls on both, and the median of the per-round ratios is the figure.
#include <algorithm>
#include <chrono>
#include <vector>

namespace atento::tools {

/// Seconds a form takes for `calls` calls.
template <typename F>
double seconds(int calls, F&& f) {
  const auto start = std::chrono::steady_clock::now();
  for (int i = 0; i < calls; ++i) f();
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
}

/// The two forms over `rounds` rounds of `calls` calls each, alternating.
struct PairedTiming {
  double first_us = 0;   ///< microseconds a call of the first form, over every round
  double second_us = 0;  ///< the same for the second
  double ratio = 0;      ///< median over rounds of first ÷ second (> 1: the second is faster)
};

template <typename First, typename Second>
PairedTiming paired_timing(int rounds, int calls, First&& first, Second&& second) {
  std::vector<double> ratios;
  double first_total = 0, second_total = 0;
  for (int round = 0; round < rounds; ++round) {
    const double a = seconds(calls, first);
    const double b = seconds(calls, second);
    first_total += a;
    second_total += b;
    ratios.push_back(a / b);
  }
  std::sort(ratios.begin(), ratios.end());
  const double per_call = 1e6 / (static_cast<double>(rounds) * calls);
  return {first_total * per_call, second_total * per_call, ratios[ratios.size() / 2]};
}

}  // namespace atento::tools
