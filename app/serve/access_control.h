#pragma once
// Who may use the endpoints that translate: --req-limit (429 past N requests per client per
// minute) and --api-keys (403 without a valid api_key), checked in that order as LibreTranslate
// does (its rate limiter runs before its key check, and counts every request). Wrap a handler
// with guard() to apply both; /health, /languages, /frontend/settings and /metrics stay open.

#include <functional>
#include <optional>
#include <string>

#include "app/serve/api_keys.h"
#include "app/serve/rate_limiter.h"

namespace httplib {
struct Request;
struct Response;
}  // namespace httplib

namespace atento {

/// A refusal: the status and the message of its {"error": …} body.
struct Refusal {
  int status;
  std::string message;
  /// Seconds for Retry-After (429 only).
  int retry_after_s = 0;
};

class AccessControl {
 public:
  using Handler = std::function<void(const httplib::Request&, httplib::Response&)>;

  /// `keys` and `limiter` must outlive this.
  AccessControl(const ApiKeys& keys, RateLimiter& limiter) : keys_(keys), limiter_(limiter) {}

  /// Why a request from `client` with `api_key` (empty when none) is refused; none when it
  /// may go on. Counts the request against the client's rate limit.
  std::optional<Refusal> check(const std::string& client, const std::string& api_key);

  /// `handler`, answering a refusal instead (JSON error body) when check() gives one.
  Handler guard(Handler handler);

  const ApiKeys& keys() const { return keys_; }

 private:
  const ApiKeys& keys_;
  RateLimiter& limiter_;
};

}  // namespace atento
