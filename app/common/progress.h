#pragma once
// Training progress: a one-line bar redrawn in place on a terminal, plain lines otherwise
// (the machine-readable log.jsonl is app/common/event_log.h's).

#include <chrono>
#include <cstdint>
#include <string>

namespace atento {

/// What the progress display shows after a step.
struct ProgressLine {
  int64_t epoch = 0;
  int64_t step = 0;
  double loss = 0.0;
  double accuracy = 0.0;
  double tokens_per_s = 0.0;   ///< units (`unit`) per second
  const char* unit = "tok/s";  ///< what is counted: target tokens, or "pairs/s" for the filter
  double elapsed_s = 0.0;
  double fraction_done = -1.0;  ///< in [0, 1]; negative when unknown (no ETA)
};

class ProgressDisplay {
 public:
  /// `interactive` redraws one line with carriage returns (stderr is a terminal).
  /// `silent` shows nothing at all (data-parallel ranks other than 0).
  explicit ProgressDisplay(bool interactive, bool silent = false);
  /// Called every step; draws at most a few times a second (terminal) or every
  /// `every_steps` steps (plain).
  void update(const ProgressLine& line, int64_t every_steps);
  /// A line that stays (validation, messages); clears the bar first.
  void message(const std::string& text);
  ~ProgressDisplay();

 private:
  std::string format(const ProgressLine& line) const;
  bool interactive_;
  bool silent_;
  bool bar_visible_ = false;
  std::chrono::steady_clock::time_point last_draw_{};
};

/// "1:05:09" / "3:07".
std::string format_duration(double seconds);

}  // namespace atento
