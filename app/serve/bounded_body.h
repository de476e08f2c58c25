#pragma once
// Request bodies bounded by --max-body whatever their framing. httplib 0.11 (Debian 12's)
// bounds a body sent with a Content-Length and reads a chunked one whole into memory, and it
// waits for a body without either until the read timeout (RFC 9112 §6.3: such a request has
// none). Each POST handler reads its body through bounded_body() instead, and a POST with
// neither header is answered at once (refuse_unframed_body).

#include <httplib.h>

#include <cstddef>
#include <functional>

namespace atento {

using PostHandler = std::function<void(const httplib::Request&, httplib::Response&)>;

/// A handler for httplib's Post() that reads the body (a multipart one part by part) and
/// calls `handler` with the request holding it in `body` (or `files`) as httplib fills them.
/// A body over `max_body` bytes is read to its end but not kept, and answered 413; one that
/// cannot be read (a malformed chunk or multipart body), 400; both with a JSON error.
httplib::Server::HandlerWithContentReader bounded_body(size_t max_body, PostHandler handler);

/// Answers 411 (JSON error) a request of a method with a body (POST, PUT, PATCH, DELETE) that
/// has neither a Content-Length nor a Transfer-Encoding; true when it did.
bool refuse_unframed_body(const httplib::Request& req, httplib::Response& res);

}  // namespace atento
