#include "app/serve/access_control.h"

#include <httplib.h>

#include <algorithm>
#include <cmath>

#include "app/serve/libretranslate_api.h"
#include "app/serve/request_fields.h"

namespace atento {

std::optional<Refusal> AccessControl::check(const std::string& client, const std::string& api_key) {
  if (!limiter_.allow(client)) {
    // Flask-Limiter's description of the limit, after LibreTranslate's "Slowdown:".
    const double wait = limiter_.wait_seconds(client);
    return Refusal{429, "Slowdown: " + std::to_string(limiter_.per_minute()) + " per 1 minute",
                   static_cast<int>(std::ceil(std::max(1.0, wait)))};
  }
  switch (keys_.check(api_key)) {
    case KeyCheck::kValid:
      return std::nullopt;
    case KeyCheck::kInvalid:
      return Refusal{403, "Invalid API key"};
    case KeyCheck::kMissing:
      return Refusal{403, "Please contact the server operator to get an API key"};
  }
  return std::nullopt;
}

AccessControl::Handler AccessControl::guard(Handler handler) {
  return [this, handler = std::move(handler)](const httplib::Request& req, httplib::Response& res) {
    const std::string key = keys_.enabled() ? request_field(req, "api_key").value_or("") : "";
    if (auto refusal = check(req.remote_addr, key)) {
      res.status = refusal->status;
      if (refusal->retry_after_s > 0) {
        res.set_header("Retry-After", std::to_string(refusal->retry_after_s));
      }
      res.set_content(error_response(refusal->message), "application/json");
      return;
    }
    handler(req, res);
  };
}

}  // namespace atento
