#include "app/serve/request_record.h"

#include <httplib.h>

namespace atento {

namespace {

struct Current {
  std::chrono::steady_clock::time_point start{};  // epoch: not routed (answered by httplib)
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

void on_request_done(httplib::Server& server, std::function<void(const RequestRecord&)> done) {
  server.set_pre_routing_handler([](const httplib::Request&, httplib::Response&) {
    current() = Current{std::chrono::steady_clock::now(), 0, 0};
    return httplib::Server::HandlerResponse::Unhandled;
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
        if (c.start != std::chrono::steady_clock::time_point{}) {
          record.milliseconds =
              std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - c.start)
                  .count();
        }
        record.characters = c.characters;
        record.sentences = c.sentences;
        c = Current{};
        done(record);
      });
}

}  // namespace atento
