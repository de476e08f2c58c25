#pragma once
// atento-serve: an HTTP/1.1 server speaking the LibreTranslate API subset
// (app/serve/libretranslate_api.h) over one loaded model, decoding concurrent requests in batches
// (app/serve/request_batcher.h).

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "app/common/overrides.h"

namespace atento {

/// Command line of atento-serve.
struct ServeArgs {
  std::string model_dir;
  /// Address to listen on; loopback unless told otherwise.
  std::string host = "127.0.0.1";
  /// TCP port; 0 = any free port (the one chosen is printed).
  int port = 5000;
  /// --threads (CPU threads of the decoder over all workers), --beam (of requests that name
  /// none), --precision, --no-split (each line of a request string one source, not its
  /// sentences); each unset one: the model's translate.*
  TranslateFlags flags;
  /// Decoding workers, each with its own batch and threads / workers intra-op threads;
  /// 0 = one per thread on a CPU, one on a GPU.
  size_t workers = 0;
  /// Connection threads: requests served at once (more connections wait for one).
  size_t http_threads = 96;
  /// Largest beam a request may ask for.
  int64_t max_beam = 8;
  /// Most sentences (lines) decoded in one batch.
  size_t max_batch = 32;
  /// Greedy sentences join a worker's running batch between decoding steps (continuous
  /// batching); false: they are decoded batch by batch, like beam search.
  bool continuous = true;
  /// Longest time, in milliseconds, the oldest queued sentence waits for others to join it.
  double batch_wait_ms = 2.0;
  /// Most characters over all strings of one request.
  size_t max_chars = 5000;
  /// Most strings in one request's q array.
  size_t max_strings = 64;
  /// Most sentences waiting for the decoder; a request that does not fit gets 503.
  size_t max_queued = 2048;
  /// Largest request body in bytes (413 above).
  size_t max_body = 256 * 1024;
  /// Seconds a connection may stay silent while a request is read (and a response written).
  int read_timeout_s = 5;
  /// --cors-origin: origins whose pages may call the API ("*": any); none = CORS off.
  std::vector<std::string> cors_origins;
  /// --api-keys FILE: the keys a translating request must carry; empty = none needed.
  std::string api_keys_file;
  /// --req-limit: most translating requests per client (IP) per minute; 0 = no limit.
  size_t req_limit = 0;
  /// --access-log FILE: where the access log is appended ("-": stderr).
  std::string access_log = "-";
  /// --no-access-log: no access log.
  bool no_access_log = false;
};

/// Loads the model once, serves until SIGTERM or SIGINT, then stops accepting, finishes the
/// requests in flight and returns 0. Throws when the model cannot be loaded or the address
/// cannot be bound.
int run_server(const ServeArgs& args);

}  // namespace atento
