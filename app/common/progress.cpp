#include "app/common/progress.h"

#include <cmath>
#include <cstdio>
#include <iostream>
#include <stdexcept>

namespace atento {

std::string format_duration(double seconds) {
  auto total = static_cast<int64_t>(std::llround(std::max(0.0, seconds)));
  char buffer[32];
  if (total >= 3600) {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld:%02lld", static_cast<long long>(total / 3600),
                  static_cast<long long>(total / 60 % 60), static_cast<long long>(total % 60));
  } else {
    std::snprintf(buffer, sizeof buffer, "%lld:%02lld", static_cast<long long>(total / 60),
                  static_cast<long long>(total % 60));
  }
  return buffer;
}

namespace {

// "  63.4%", or "   n/a" for NaN (training accuracy skipped with the adaptive softmax).
std::string percent(double fraction) {
  if (std::isnan(fraction)) return "  n/a";
  char buffer[16];
  std::snprintf(buffer, sizeof buffer, "%5.1f%%", 100.0 * fraction);
  return buffer;
}

}  // namespace

ProgressDisplay::ProgressDisplay(bool interactive, bool silent)
    : interactive_(interactive), silent_(silent) {}

ProgressDisplay::~ProgressDisplay() {
  if (bar_visible_) std::cerr << '\n';
}

std::string ProgressDisplay::format(const ProgressLine& p) const {
  char buffer[256];
  std::snprintf(
      buffer, sizeof buffer, "epoch %lld | step %lld | loss %.3f | acc %s | %6.0f %s | %s",
      static_cast<long long>(p.epoch + 1), static_cast<long long>(p.step), p.loss,
      percent(p.accuracy).c_str(), p.tokens_per_s, p.unit, format_duration(p.elapsed_s).c_str());
  std::string text = buffer;
  if (p.fraction_done > 0.0 && p.fraction_done <= 1.0) {
    double eta = p.elapsed_s * (1.0 - p.fraction_done) / p.fraction_done;
    int filled = static_cast<int>(p.fraction_done * 20);
    text = "[" + std::string(filled, '#') + std::string(20 - filled, '.') + "] " + text +
           " | ETA " + format_duration(eta);
  }
  return text;
}

void ProgressDisplay::update(const ProgressLine& line, int64_t every_steps) {
  if (silent_) return;
  if (interactive_) {
    auto now = std::chrono::steady_clock::now();
    if (now - last_draw_ < std::chrono::milliseconds(250)) return;
    last_draw_ = now;
    std::cerr << "\r\033[K" << format(line) << std::flush;
    bar_visible_ = true;
  } else if (line.step % every_steps == 0) {
    std::cerr << format(line) << '\n';
  }
}

void ProgressDisplay::message(const std::string& text) {
  if (silent_) return;
  if (bar_visible_) std::cerr << "\r\033[K";
  bar_visible_ = false;
  std::cerr << text << '\n';
}

}  // namespace atento
