#include "app/serve/cors.h"

#include <httplib.h>

#include <algorithm>
#include <regex>

#include "app/common/config.h"

namespace atento {

namespace {

// LibreTranslate's values (its after_request hook): the methods, the request headers a page
// may send, and 20 days of preflight caching.
constexpr const char* kMethods = "GET, POST";
constexpr const char* kHeaders = "Authorization, Content-Type";
constexpr const char* kMaxAge = "1728000";

}  // namespace

void check_cors_origins(const std::vector<std::string>& origins) {
  static const std::regex origin(
      R"(https?://[A-Za-z0-9.\-]+(:[0-9]{1,5})?|https?://\[[0-9A-Fa-f:.]+\](:[0-9]{1,5})?)");
  for (const auto& o : origins) {
    if (o != "*" && !std::regex_match(o, origin)) {
      throw ConfigError("--cors-origin " + o +
                        ": expected * or an origin such as https://example.org or "
                        "http://localhost:8080 (scheme, host and port, no path)");
    }
  }
}

std::optional<std::string> allowed_origin(const CorsPolicy& policy, const std::string& origin) {
  const auto& o = policy.origins;
  if (std::find(o.begin(), o.end(), "*") != o.end()) return std::string("*");
  if (!origin.empty() && std::find(o.begin(), o.end(), origin) != o.end()) return origin;
  return std::nullopt;
}

std::vector<std::pair<std::string, std::string>> cors_headers(const CorsPolicy& policy,
                                                              const std::string& origin,
                                                              bool preflight) {
  std::vector<std::pair<std::string, std::string>> headers;
  const auto allowed = allowed_origin(policy, origin);
  if (!allowed) return headers;
  headers.emplace_back("Access-Control-Allow-Origin", *allowed);
  if (*allowed != "*") headers.emplace_back("Vary", "Origin");
  if (preflight) {
    headers.emplace_back("Access-Control-Allow-Methods", kMethods);
    headers.emplace_back("Access-Control-Allow-Headers", kHeaders);
    headers.emplace_back("Access-Control-Max-Age", kMaxAge);
  }
  return headers;
}

void register_cors(httplib::Server& server, const CorsPolicy& policy) {
  server.Options(".*", [](const httplib::Request&, httplib::Response& res) {
    res.status = 204;
    res.set_header("Allow", "GET, POST, OPTIONS");
  });
  if (policy.origins.empty()) return;
  server.set_post_routing_handler([policy](const httplib::Request& req, httplib::Response& res) {
    for (auto& [name, value] :
         cors_headers(policy, req.get_header_value("Origin"), req.method == "OPTIONS")) {
      res.set_header(name, value);
    }
  });
}

}  // namespace atento
