#pragma once
// GET /frontend/settings: what LibreTranslate's web page asks first (its character limit, the
// languages it starts with, whether it needs an API key, which files it may upload), with
// LibreTranslate's field names.

#include <cstddef>
#include <string>
#include <vector>

#include "app/serve/libretranslate_api.h"

namespace httplib {
class Server;
}

namespace atento {

struct FrontendSettings {
  size_t char_limit = 5000;        ///< --max-chars
  int frontend_timeout_ms = 500;   ///< LibreTranslate's default: the page's typing delay
  bool api_keys = false;           ///< --api-keys given
  bool key_required = false;       ///< a request without a valid key is refused
  std::vector<std::string> files;  ///< POST /translate_file's extensions (".txt" …)
  LanguagePair languages;          ///< the model's pair
};

/// {"charLimit":…, "frontendTimeout":…, "apiKeys":…, "keyRequired":…, "suggestions":false,
///  "filesTranslation":…, "supportedFilesFormat":[…], "language":{"source":{"code","name"},
///  "target":{"code","name"}}}.
std::string frontend_settings_response(const FrontendSettings& settings);

/// GET /frontend/settings.
void register_frontend_settings(httplib::Server& server, FrontendSettings settings);

}  // namespace atento
