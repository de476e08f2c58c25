#pragma once
// --cors-origin: which web pages on other origins may call the API from a browser. Off by
// default (no Access-Control-* header: browsers keep other origins out); "*" lets any origin
// in, as LibreTranslate always does; otherwise the listed origins only (the request's Origin is
// echoed back, with Vary: Origin). OPTIONS preflights are answered 204 on every path.

#include <optional>
#include <string>
#include <vector>

namespace httplib {
class Server;
}

namespace atento {

struct CorsPolicy {
  /// Allowed origins ("https://example.org", scheme://host[:port]) or "*"; empty = CORS off.
  std::vector<std::string> origins;
};

/// Throws ConfigError when an origin is not "*" nor scheme://host[:port] (no path).
void check_cors_origins(const std::vector<std::string>& origins);

/// The Access-Control-Allow-Origin value for a request from `origin` (its Origin header, empty
/// when none): "*" when any origin is allowed, `origin` itself when listed, none otherwise.
std::optional<std::string> allowed_origin(const CorsPolicy& policy, const std::string& origin);

/// The CORS headers for a request from `origin` ((name, value) pairs; none when not allowed).
/// `preflight`: an OPTIONS request, which also gets the allowed methods, headers and max age.
std::vector<std::pair<std::string, std::string>> cors_headers(const CorsPolicy& policy,
                                                              const std::string& origin,
                                                              bool preflight);

/// Answers OPTIONS on every path (204, Allow) and adds the CORS headers to every response.
void register_cors(httplib::Server& server, const CorsPolicy& policy);

}  // namespace atento
