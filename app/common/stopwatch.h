#pragma once
// Seconds of wall-clock time on the steady clock: what the programs print and log as the time a
// stage took (decoding, scoring, validating, saving, answering a request).

#include <chrono>

namespace atento {

class Stopwatch {
 public:
  Stopwatch() : started_(std::chrono::steady_clock::now()) {}
  /// Seconds since construction or the last restart().
  double seconds() const {
    return std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  }
  void restart() { started_ = std::chrono::steady_clock::now(); }

 private:
  std::chrono::steady_clock::time_point started_;
};

}  // namespace atento
