#pragma once
// What is known of one answered request, for the access log and the metrics: gathered on the
// connection thread that serves it (httplib serves a request on one thread from its first byte
// to its logger), so handlers add what they translated without passing anything around.

#include <chrono>
#include <cstddef>
#include <functional>
#include <string>

namespace httplib {
class Server;
struct Request;
struct Response;
}  // namespace httplib

namespace atento {

struct RequestRecord {
  std::chrono::system_clock::time_point time;  ///< when the answer was written
  std::string client;                          ///< the peer's address
  std::string method;
  std::string path;  ///< without the query string
  int status = 0;
  double milliseconds = 0;  ///< from routing to the answer written (0 when never routed)
  size_t characters = 0;    ///< characters (code points) translated for it
  size_t sentences = 0;     ///< sentences (pieces) translated for it
};

/// Adds to the current request's counts (called by the handlers that translate).
void note_translated(size_t characters, size_t sentences);

/// Calls `done` once per answered request, after the answer is written, on its thread
/// (httplib's pre-routing handler and logger; nothing else may set those). `answer_early`
/// answers a request before it is routed (its body unread) when it returns true.
void on_request_done(httplib::Server& server,
                     std::function<bool(const httplib::Request&, httplib::Response&)> answer_early,
                     std::function<void(const RequestRecord&)> done);

}  // namespace atento
