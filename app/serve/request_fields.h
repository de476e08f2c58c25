#pragma once
// The fields of a POST, whatever its body: JSON, application/x-www-form-urlencoded, or
// multipart/form-data (LibreTranslate's web page posts FormData), parsed by cpp-httplib.

#include <optional>
#include <string>
#include <utility>

namespace httplib {
struct Request;
}

namespace atento {

/// True when the body is an application/x-www-form-urlencoded form.
bool is_form(const httplib::Request& req);

/// A field's value as a string: a JSON string member, a form or multipart field, or a query
/// parameter (as Flask's request.values); none when absent or not a string.
std::optional<std::string> request_field(const httplib::Request& req, const std::string& name);

/// The body and Content-Type that parse_translate_request (libretranslate_api.h) reads: a JSON
/// body as it is; for a form (application/x-www-form-urlencoded, multipart/form-data, or an
/// empty body without a JSON type) its fields other than files and the query string's fields
/// that it lacks, as an application/x-www-form-urlencoded body (a repeated q stays an array);
/// any other body as it is. Throws ApiError 400 on a malformed %-escape.
std::pair<std::string, std::string> translate_body(const httplib::Request& req);

/// `text` %-encoded for an application/x-www-form-urlencoded body.
std::string form_encode(const std::string& text);

}  // namespace atento
