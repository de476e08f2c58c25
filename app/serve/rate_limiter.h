#pragma once
// --req-limit: at most N requests per client per minute, as a token bucket per client (N
// tokens, refilled at N per minute: a burst of N, then one every 60/N seconds), kept exactly in
// integer time as the generic cell rate algorithm does (one "theoretical arrival time" per
// client: each request moves it 60/N s on; a request that would move it more than a minute
// ahead of now is refused). Clients are
// kept in least-recently-seen order and the table is bounded: past `max_clients`, the client
// seen longest ago is forgotten (its bucket had refilled, or nearly, by then).

#include <chrono>
#include <cstddef>
#include <functional>
#include <list>
#include <mutex>
#include <string>
#include <unordered_map>

namespace atento {

class RateLimiter {
 public:
  using Clock = std::function<std::chrono::steady_clock::time_point()>;

  /// `per_minute` 0 = unlimited. `clock` defaults to std::chrono::steady_clock::now.
  explicit RateLimiter(size_t per_minute, size_t max_clients = 65536, Clock clock = nullptr);

  /// Whether `client` may make one more request now (and counts it when it may).
  bool allow(const std::string& client);

  /// Seconds until `client` may make its next request (0 when it may now); for Retry-After.
  double wait_seconds(const std::string& client);

  size_t per_minute() const { return per_minute_; }
  /// Clients remembered now (at most max_clients).
  size_t clients() const;

 private:
  struct Bucket {
    /// When the client's bucket is full again (never before now).
    std::chrono::steady_clock::time_point full;
    std::list<std::string>::iterator seen;  // position in recent_
  };
  /// The client's bucket at `now`; created (full) when new.
  Bucket& bucket(const std::string& client, std::chrono::steady_clock::time_point now);
  /// How far ahead of now `full` may be for one more request to be allowed.
  std::chrono::steady_clock::duration tolerance() const { return interval_ * (per_minute_ - 1); }

  size_t per_minute_;
  /// 60 s / per_minute: what one request costs.
  std::chrono::steady_clock::duration interval_;
  size_t max_clients_;
  Clock clock_;
  mutable std::mutex mutex_;
  std::unordered_map<std::string, Bucket> buckets_;
  std::list<std::string> recent_;  // most recently seen first
};

}  // namespace atento
