#pragma once
// The training counters a checkpoint carries (state.json) for an exact resume.

#include <cmath>
#include <cstdint>
#include <nlohmann/json_fwd.hpp>
#include <string>

namespace atento {

/// Training progress that a checkpoint must carry for an exact resume. The data order is a
/// function of (seed, epoch) and the dropout generator is re-seeded from (seed, step), so
/// these counters are the whole random state.
struct TrainState {
  int64_t step = 0;            ///< optimiser steps done
  int64_t epoch = 0;           ///< current epoch (0-based)
  int64_t batch_in_epoch = 0;  ///< batches of `epoch` already consumed
  double elapsed_s = 0.0;      ///< training wall-clock time over all runs
  int64_t target_tokens = 0;   ///< target tokens trained on (translation models)
  int64_t examples = 0;        ///< examples trained on (the pair filter's pairs; absent before)
  double best_value = NAN;     ///< best validation figure by train.best_metric; NaN = none yet
  int64_t best_step = -1;      ///< step of best_value; -1 = none yet
  int64_t evals_since_best = 0;
  int64_t last_eval_step = -1;  ///< step of the last validation; -1 = none yet
  /// Data-parallel ranks that trained up to here (1 = one process; absent in older states).
  /// Informative: the global batch, hence the maths, does not depend on it.
  int64_t world_size = 1;
};

/// Every field; a NaN best_value is written as null.
nlohmann::json train_state_to_json(const TrainState& state);

/// Reads what train_state_to_json wrote; throws std::runtime_error "<source>: corrupt training
/// state: …" when a field is missing or has the wrong type.
TrainState train_state_from_json(const nlohmann::json& doc, const std::string& source);

/// The largest state.json read (written ones hold about 300 bytes).
inline constexpr std::uint64_t kMaxStateBytes = 1 << 16;

/// Parses the file `path` (a checkpoint's state.json); errors name the file.
TrainState read_train_state(const std::string& path);

/// A figure as JSON: null for NaN (JSON has no NaN).
nlohmann::json number_or_null(double value);

}  // namespace atento
