#include "app/serve/frontend_settings.h"

#include <httplib.h>

#include <nlohmann/json.hpp>

namespace atento {

std::string frontend_settings_response(const FrontendSettings& s) {
  using nlohmann::json;
  return json{
      {"charLimit", s.char_limit},
      {"frontendTimeout", s.frontend_timeout_ms},
      {"apiKeys", s.api_keys},
      {"keyRequired", s.key_required},
      {"suggestions", false},  // POST /suggest is not served
      {"filesTranslation", !s.files.empty()},
      {"supportedFilesFormat", s.files},
      {"language",
       {{"source", {{"code", s.languages.source}, {"name", language_name(s.languages.source)}}},
        {"target", {{"code", s.languages.target}, {"name", language_name(s.languages.target)}}}}}}
      .dump(-1, ' ', false, json::error_handler_t::replace);
}

void register_frontend_settings(httplib::Server& server, FrontendSettings settings) {
  server.Get("/frontend/settings", [body = frontend_settings_response(settings)](
                                       const httplib::Request&, httplib::Response& res) {
    res.set_content(body, "application/json");
  });
}

}  // namespace atento
