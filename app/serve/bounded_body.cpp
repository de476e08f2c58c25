#include "app/serve/bounded_body.h"

#include <string>
#include <utility>

#include "app/serve/libretranslate_api.h"
#include "app/serve/request_fields.h"

namespace atento {
namespace {

void reply(httplib::Response& res, int status, const std::string& message) {
  res.status = status;
  res.set_content(error_response(message), kJson);
}

}  // namespace

httplib::Server::HandlerWithContentReader bounded_body(size_t max_body, PostHandler handler) {
  return [max_body, handler = std::move(handler)](const httplib::Request& req,
                                                  httplib::Response& res,
                                                  const httplib::ContentReader& read) {
    httplib::Request filled = req;
    size_t bytes = 0;
    // Keeps what fits; past the limit it reads on (so that the connection's next request
    // starts where this one ends) and keeps nothing more.
    auto keep = [&](std::string& into, const char* data, size_t size) {
      bytes += size;
      if (bytes <= max_body) into.append(data, size);
      return true;
    };
    httplib::MultipartFormData* part = nullptr;
    const bool read_whole =
        req.is_multipart_form_data()
            ? read(
                  [&](const httplib::MultipartFormData& header) {
                    part = &filled.files.emplace(header.name, header)->second;
                    return true;
                  },
                  [&](const char* data, size_t size) { return keep(part->content, data, size); })
            : read([&](const char* data, size_t size) { return keep(filled.body, data, size); });
    // httplib refuses a Content-Length over the limit itself (413, the body skipped).
    if (bytes > max_body || (!read_whole && res.status == 413)) {
      reply(res, 413,
            "Payload Too Large: the request body exceeds the limit of " + std::to_string(max_body) +
                " bytes");
    } else if (!read_whole) {
      reply(res, 400, "Bad Request: the request body could not be read");
    } else {
      // As httplib does for a body it reads itself: a form's fields become parameters.
      if (is_form(req)) {
        httplib::detail::parse_query_text(filled.body, filled.params);
      }
      handler(filled, res);
    }
  };
}

bool refuse_unframed_body(const httplib::Request& req, httplib::Response& res) {
  const bool has_body_method = req.method == "POST" || req.method == "PUT" ||
                               req.method == "PATCH" || req.method == "DELETE";
  if (!has_body_method || req.has_header("Content-Length") || req.has_header("Transfer-Encoding")) {
    return false;
  }
  reply(res, 411, "Length Required: send the request's fields in a body with a Content-Length");
  return true;
}

}  // namespace atento
