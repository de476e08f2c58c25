#include "app/serve/request_record.h"

#include <httplib.h>

#include <optional>

#include "app/common/stopwatch.h"

namespace atento {

namespace {

struct Current {
  std::optional<Stopwatch> watch;  // unset: not routed (answered by httplib)
  size_t characters = 0;
  size_t sentences = 0;
};

Current& current() {
  thread_local Current c;
  return c;
}

}  // namespace

void note_translated(size_t characters, size_t sentences) {
  current().characters += characters;
  current().sentences += sentences;
}

void on_request_done(httplib::Server& server,
                     std::function<bool(const httplib::Request&, httplib::Response&)> answer_early,
                     std::function<void(const RequestRecord&)> done) {
  server.set_pre_routing_handler([answer_early = std::move(answer_early)](
                                     const httplib::Request& req, httplib::Response& res) {
    current() = Current{Stopwatch(), 0, 0};
    return answer_early && answer_early(req, res) ? httplib::Server::HandlerResponse::Handled
                                                  : httplib::Server::HandlerResponse::Unhandled;
  });
  server.set_logger(
      [done = std::move(done)](const httplib::Request& req, const httplib::Response& res) {
        Current& c = current();
        RequestRecord record;
        record.time = std::chrono::system_clock::now();
        record.client = req.remote_addr;
        record.method = req.method;
        record.path = req.path;
        record.status = res.status;
        if (c.watch) record.milliseconds = 1000.0 * c.watch->seconds();
        record.characters = c.characters;
        record.sentences = c.sentences;
        c = Current{};
        done(record);
      });
}

}  // namespace atento
