#pragma once
// GET /metrics: atento-serve's counters in the Prometheus text exposition format (0.0.4).
// Everything is a relaxed atomic in fixed tables (paths and statuses known in advance, others
// counted as "other"), so observing costs a few atomic adds and needs no lock.
//   atento_requests_total{path,status}     counter   requests answered
//   atento_errors_total                    counter   of those, status 400 and above
//   atento_sentences_translated_total      counter   sentences (pieces) translated
//   atento_characters_translated_total     counter   characters translated
//   atento_queue_depth                     gauge     sentences waiting for a decoder
//   atento_batch_size                      histogram sentences per decoded batch or step
//   atento_request_duration_seconds       histogram time to answer a request

#include <array>
#include <atomic>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <string>

#include "app/serve/request_record.h"

namespace httplib {
class Server;
}

namespace atento {

/// A Prometheus histogram over fixed upper bounds (plus +Inf).
template <size_t N>
struct Histogram {
  std::array<double, N> bounds;
  std::array<std::atomic<uint64_t>, N + 1> counts{};  // per bucket (not cumulative)
  std::atomic<uint64_t> sum_micros{0};                // sum × 1e6, for exact atomic adds

  void observe(double value);
  /// The text lines of `name` (HELP, TYPE, cumulative buckets, _sum, _count).
  std::string format(const std::string& name, const std::string& help) const;
};

class Metrics {
 public:
  /// Paths counted by name; any other is counted as "other".
  static constexpr std::array<const char*, 11> kPaths = {
      "/translate",         "/translate_file", "/download_file", "/detect", "/languages", "/health",
      "/frontend/settings", "/metrics",        "/attention",     "/",       "other"};
  /// Statuses counted by code; any other as "other".
  static constexpr std::array<int, 16> kStatuses = {200, 204, 206, 301, 304, 400, 401, 403,
                                                    404, 405, 408, 413, 414, 415, 429, 500};

  Metrics();

  /// Counts one answered request (status, path, duration, what it translated).
  void observe(const RequestRecord& record);
  /// Counts one decoded batch (or continuous-batching step) of `sentences`.
  void observe_batch(size_t sentences);

  /// The exposition text; `queue_depth` is read now.
  std::string format(size_t queue_depth) const;

 private:
  static size_t path_index(const std::string& path);
  static size_t status_index(int status);

  // [path][status], the last status column for "other" (its code is not kept).
  std::array<std::array<std::atomic<uint64_t>, kStatuses.size() + 1>, kPaths.size()> requests_{};
  std::atomic<uint64_t> errors_{0};
  std::atomic<uint64_t> sentences_{0};
  std::atomic<uint64_t> characters_{0};
  Histogram<10> batch_sizes_;
  Histogram<12> durations_;
};

/// GET /metrics, reading the queue depth from `queue_depth`.
void register_metrics(httplib::Server& server, const Metrics& metrics,
                      std::function<size_t()> queue_depth);

}  // namespace atento
