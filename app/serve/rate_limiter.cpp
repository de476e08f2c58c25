#include "app/serve/rate_limiter.h"

#include <algorithm>

namespace atento {

RateLimiter::RateLimiter(size_t per_minute, size_t max_clients, Clock clock)
    : per_minute_(per_minute),
      interval_(per_minute == 0 ? std::chrono::steady_clock::duration::zero()
                                : std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                      std::chrono::minutes(1)) /
                                      static_cast<int64_t>(per_minute)),
      max_clients_(std::max<size_t>(1, max_clients)),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })) {}

RateLimiter::Bucket& RateLimiter::bucket(const std::string& client,
                                         std::chrono::steady_clock::time_point now) {
  auto found = buckets_.find(client);
  if (found == buckets_.end()) {
    if (buckets_.size() >= max_clients_) {
      buckets_.erase(recent_.back());
      recent_.pop_back();
    }
    recent_.push_front(client);
    return buckets_.emplace(client, Bucket{now, recent_.begin()}).first->second;
  }
  Bucket& b = found->second;
  recent_.splice(recent_.begin(), recent_, b.seen);
  if (b.full < now) b.full = now;
  return b;
}

bool RateLimiter::allow(const std::string& client) {
  if (per_minute_ == 0) return true;
  const auto now = clock_();
  std::lock_guard<std::mutex> lock(mutex_);
  Bucket& b = bucket(client, now);
  if (b.full - now > tolerance()) return false;
  b.full += interval_;
  return true;
}

double RateLimiter::wait_seconds(const std::string& client) {
  if (per_minute_ == 0) return 0;
  const auto now = clock_();
  std::lock_guard<std::mutex> lock(mutex_);
  const auto ahead = bucket(client, now).full - now - tolerance();
  return std::max(0.0, std::chrono::duration<double>(ahead).count());
}

size_t RateLimiter::clients() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return buckets_.size();
}

}  // namespace atento
