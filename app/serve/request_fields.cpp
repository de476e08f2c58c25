#include "app/serve/request_fields.h"

#include <httplib.h>

#include <cctype>
#include <nlohmann/json.hpp>

namespace atento {

namespace {

bool is_json(const httplib::Request& req) {
  const std::string type = req.get_header_value("Content-Type");
  return type.empty() || type.find("json") != std::string::npos;
}

}  // namespace

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
  if (!req.is_multipart_form_data()) return {req.body, req.get_header_value("Content-Type")};
  std::string body;
  for (const auto& [name, field] : req.files) {
    if (!field.filename.empty()) continue;  // an uploaded file is not a field of /translate
    if (!body.empty()) body += '&';
    body += form_encode(name) + '=' + form_encode(field.content);
  }
  return {body, "application/x-www-form-urlencoded"};
}

}  // namespace atento
