#include "app/serve/serve_operations.h"

#include <httplib.h>

#include "app/serve/frontend_settings.h"
#include "app/serve/request_record.h"

namespace atento {

namespace {

ApiKeys load_keys(const std::string& file) {
  return file.empty() ? ApiKeys() : ApiKeys::load(file);
}

}  // namespace

ServeOperations::ServeOperations(const ServeArgs& args)
    : cors_{args.cors_origins},
      keys_(load_keys(args.api_keys_file)),
      limiter_(args.req_limit),
      access_(keys_, limiter_),
      log_(args.no_access_log ? nullptr : std::make_unique<AccessLog>(args.access_log)),
      max_body_(args.max_body) {
  check_cors_origins(cors_.origins);
}

std::function<void(size_t)> ServeOperations::batch_observer() {
  return [this](size_t sentences) { metrics_.observe_batch(sentences); };
}

void ServeOperations::install(httplib::Server& server, const ApiLimits& limits,
                              std::function<size_t()> queue_depth, FileTranslators translators) {
  register_cors(server, cors_);
  on_request_done(server, refuse_unframed_body, [this](const RequestRecord& record) {
    metrics_.observe(record);
    if (log_) log_->write(record);
  });
  register_metrics(server, metrics_, std::move(queue_depth));
  FrontendSettings settings;
  settings.char_limit = limits.max_chars;
  settings.api_keys = keys_.enabled();
  settings.key_required = keys_.enabled();
  settings.files = supported_file_formats(translators);
  settings.languages = limits.languages;
  register_frontend_settings(server, settings);
  register_translate_file(
      server, guarded_post(translate_file_handler(limits, files_, std::move(translators))), files_);
}

std::string ServeOperations::summary() const {
  std::string s;
  if (keys_.enabled()) s += ", " + std::to_string(keys_.size()) + " API key(s)";
  if (limiter_.per_minute() > 0) {
    s += ", " + std::to_string(limiter_.per_minute()) + " requests/minute per client";
  }
  if (!cors_.origins.empty()) s += ", CORS on";
  return s;
}

}  // namespace atento
