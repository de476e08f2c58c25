#include "app/serve/request_fields.h"

#include <httplib.h>

#include <cctype>
#include <nlohmann/json.hpp>
#include <set>

#include "app/serve/libretranslate_api.h"

namespace atento {

namespace {

bool is_json(const httplib::Request& req) {
  const std::string type = req.get_header_value("Content-Type");
  return type.empty() || type.find("json") != std::string::npos;
}

}  // namespace

bool is_form(const httplib::Request& req) {
  return req.get_header_value("Content-Type").rfind("application/x-www-form-urlencoded", 0) == 0;
}

std::optional<std::string> request_field(const httplib::Request& req, const std::string& name) {
  if (req.is_multipart_form_data() && req.has_file(name)) {
    const auto field = req.get_file_value(name);
    if (field.filename.empty()) return field.content;
  }
  if (req.has_param(name.c_str())) return req.get_param_value(name.c_str());
  if (req.method == "POST" && !req.is_multipart_form_data() && is_json(req)) {
    const auto body = nlohmann::json::parse(req.body, nullptr, false);
    if (body.is_object() && body.contains(name) && body[name].is_string()) {
      return body[name].get<std::string>();
    }
  }
  return std::nullopt;
}

std::string form_encode(const std::string& text) {
  static const char* hex = "0123456789ABCDEF";
  std::string out;
  for (unsigned char c : text) {
    if (std::isalnum(c) || c == '-' || c == '.' || c == '_' || c == '~') {
      out += static_cast<char>(c);
    } else {
      out += '%';
      out += hex[c >> 4];
      out += hex[c & 15];
    }
  }
  return out;
}

std::pair<std::string, std::string> translate_body(const httplib::Request& req) {
  const std::string type = req.get_header_value("Content-Type");
  if (!req.is_multipart_form_data() && !is_form(req) && !(type.empty() && req.body.empty())) {
    return {req.body, type};
  }
  std::string body;
  std::set<std::string> names;
  auto add = [&](const std::string& name, const std::string& value) {
    if (!body.empty()) body += '&';
    body += form_encode(name) + '=' + form_encode(value);
    names.insert(name);
  };
  if (!req.is_multipart_form_data()) {
    for (const auto& [name, value] : parse_form(req.body)) add(name, value);
  }
  for (const auto& [name, field] : req.files) {
    if (field.filename.empty()) add(name, field.content);  // a file is no field of /translate
  }
  // The query string's fields that the body lacks: LibreTranslate reads a form request's
  // fields with Flask's request.values, the query string's and the body's together.
  const size_t query = req.target.find('?');
  if (query != std::string::npos) {
    const auto in_body = names;
    for (const auto& [name, value] : parse_form(req.target.substr(query + 1))) {
      if (in_body.count(name) == 0) add(name, value);
    }
  }
  return {body, "application/x-www-form-urlencoded"};
}

}  // namespace atento
