#pragma once
// What atento-serve does besides translating, built from its flags: CORS (--cors-origin), API
// keys (--api-keys) and rate limits (--req-limit) on the translating endpoints, request bodies
// bounded by --max-body, the access log (--access-log, --no-access-log), GET /metrics,
// GET /frontend/settings, and POST /translate_file with GET /download_file/NAME. server.cpp
// makes one, installs it, and registers each translating handler through guarded_post().

#include <functional>
#include <memory>
#include <vector>

#include "app/serve/access_control.h"
#include "app/serve/access_log.h"
#include "app/serve/api_keys.h"
#include "app/serve/bounded_body.h"
#include "app/serve/cors.h"
#include "app/serve/metrics.h"
#include "app/serve/rate_limiter.h"
#include "app/serve/server.h"
#include "app/serve/translate_file.h"
#include "app/serve/translated_files.h"

namespace atento {

class ServeOperations {
 public:
  /// Checks the flags, reads the API keys, opens the access log: ConfigError (exit 2) naming
  /// the file (and line) when one is bad.
  explicit ServeOperations(const ServeArgs& args);
  ServeOperations(const ServeOperations&) = delete;
  ServeOperations& operator=(const ServeOperations&) = delete;

  /// For BatcherOptions::on_batch: the metrics' batch-size histogram.
  std::function<void(size_t)> batch_observer();

  /// Registers everything on `server` (see above). `queue_depth` reads the batcher's queue;
  /// `translators` translate uploaded files. Must be called before the server starts, once.
  void install(httplib::Server& server, const ApiLimits& limits,
               std::function<size_t()> queue_depth, FileTranslators translators);

  /// A POST route's handler: `handler` with its body read at most --max-body bytes
  /// (bounded_body.h), behind the rate limit and the API key check (429, 403).
  httplib::Server::HandlerWithContentReader guarded_post(AccessControl::Handler handler) {
    return bounded_body(max_body_, access_.guard(std::move(handler)));
  }

  /// A line for the start-up message: which of these are on.
  std::string summary() const;

 private:
  CorsPolicy cors_;
  ApiKeys keys_;
  RateLimiter limiter_;
  AccessControl access_;
  std::unique_ptr<AccessLog> log_;
  Metrics metrics_;
  TranslatedFiles files_;
  size_t max_body_;
};

}  // namespace atento
