#pragma once
// SIGINT/SIGTERM during training: a flag the training loop polls between steps, so that it
// saves a checkpoint and exits with 128 + the signal instead of dying mid-write.

namespace atento {

/// Installs handlers for SIGINT and SIGTERM that record the signal; the previous handlers
/// come back on destruction. One instance at a time (the flag is process-wide).
class StopSignals {
 public:
  StopSignals();
  ~StopSignals();
  StopSignals(const StopSignals&) = delete;
  StopSignals& operator=(const StopSignals&) = delete;

  /// The signal received since construction (SIGINT or SIGTERM), or 0.
  int received() const;

 private:
  void (*previous_int_)(int);
  void (*previous_term_)(int);
};

}  // namespace atento
