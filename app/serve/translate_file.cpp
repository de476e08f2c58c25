#include "app/serve/translate_file.h"

#include <httplib.h>

#include <algorithm>
#include <nlohmann/json.hpp>

#include "app/serve/request_batcher.h"
#include "app/serve/request_fields.h"
#include "data/utf8.h"

namespace atento {

namespace {

[[noreturn]] void missing(const std::string& name) {
  throw ApiError(400, "Invalid request: missing " + name + " parameter");
}

std::string lower_extension(const std::string& filename) {
  const size_t dot = filename.rfind('.');
  if (dot == std::string::npos || dot == 0) return "";
  std::string ext = filename.substr(dot);
  std::transform(ext.begin(), ext.end(), ext.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return ext;
}

bool is_html(const std::string& ext) { return ext == ".html" || ext == ".htm"; }

/// A .txt file translated window by window, each window a request of one string.
std::string translate_text_file(const std::string& text, const std::string& source,
                                const ApiLimits& limits, const TextTranslator& translate) {
  std::string out;
  // source "auto": the whole file is identified once (refused when in another language).
  LanguageGuess guess;
  if (source == "auto") guess = detect_source(text, limits.languages);
  for (const auto& window : text_windows(text, limits.max_chars)) {
    TranslateRequest request;
    request.q = {window};
    request.source = source;
    request.target = limits.languages.target;
    if (source == "auto") request.detected = {guess};
    request.beam = limits.default_beam;
    out += translate(request);
  }
  return out;
}

void translate_file(const httplib::Request& req, httplib::Response& res, const ApiLimits& limits,
                    TranslatedFiles& files, const FileTranslators& translators) {
  if (!req.is_multipart_form_data() || !req.has_file("file")) missing("file");
  const auto source = request_field(req, "source");
  const auto target = request_field(req, "target");
  if (!source || source->empty()) missing("source");
  if (!target || target->empty()) missing("target");
  const auto file = req.get_file_value("file");
  if (file.filename.empty()) throw ApiError(400, "Invalid request: empty file");
  const std::string ext = lower_extension(file.filename);
  const auto formats = supported_file_formats(translators);
  if (std::find(formats.begin(), formats.end(), ext) == formats.end()) {
    throw ApiError(400, "Invalid request: file format not supported");
  }
  // LibreTranslate's messages for a language the server does not translate.
  if (*source != limits.languages.source && *source != "auto") {
    throw ApiError(400, *source + " is not supported");
  }
  if (*target != limits.languages.target) throw ApiError(400, *target + " is not supported");
  if (!data::is_valid_utf8(file.content) || file.content.find('\0') != std::string::npos) {
    throw ApiError(400, "Invalid request: the file is not UTF-8 text");
  }
  std::string translated;
  if (is_html(ext)) {
    translated = translators.html(file.content, *source, *target);
  } else {
    translated = translate_text_file(file.content, *source, limits, translators.text);
  }
  const std::string id = files.put({safe_file_name(file.filename), std::move(translated)});
  const std::string host = req.has_header("Host") ? req.get_header_value("Host") : "localhost";
  res.set_content(
      nlohmann::json{{"translatedFileUrl", "http://" + host + "/download_file/" + id}}.dump(
          -1, ' ', false, nlohmann::json::error_handler_t::replace),
      kJson);
}

void download_file(const httplib::Request& req, httplib::Response& res, TranslatedFiles& files) {
  const std::string id = req.matches.size() > 1 ? std::string(req.matches[1]) : "";
  auto file = files.get(id);
  if (!file) {
    res.status = 404;
    res.set_content(error_response("Invalid filename: no translated file " + id +
                                   " (translated files are kept 30 minutes)"),
                    kJson);
    return;
  }
  res.set_header("Content-Disposition", "attachment; filename=\"" + file->name + "\"");
  const std::string type = is_html(lower_extension(file->name)) ? "text/html" : "text/plain";
  res.set_content(file->content, type + "; charset=utf-8");
}

}  // namespace

std::vector<std::string> supported_file_formats(const FileTranslators& translators) {
  std::vector<std::string> formats = {".txt"};
  if (translators.html) {
    formats.push_back(".html");
    formats.push_back(".htm");
  }
  return formats;
}

std::vector<std::string> text_windows(const std::string& text, size_t max_chars) {
  std::vector<std::string> windows;
  std::string window;
  size_t chars = 0;
  for (size_t begin = 0; begin < text.size();) {
    const size_t newline = text.find('\n', begin);
    const size_t end = newline == std::string::npos ? text.size() : newline + 1;
    const std::string line = text.substr(begin, end - begin);
    const size_t n = data::utf8_length(line);
    if (!window.empty() && chars + n > max_chars) {
      windows.push_back(std::move(window));
      window.clear();
      chars = 0;
    }
    window += line;
    chars += n;
    begin = end;
  }
  if (!window.empty() || windows.empty()) windows.push_back(std::move(window));
  return windows;
}

std::string translated_text(const std::string& response) {
  return nlohmann::json::parse(response).at("translatedText").get<std::string>();
}

AccessControl::Handler translate_file_handler(const ApiLimits& limits, TranslatedFiles& files,
                                              FileTranslators translators) {
  return [&limits, &files, translators = std::move(translators)](const httplib::Request& req,
                                                                 httplib::Response& res) {
    try {
      translate_file(req, res, limits, files, translators);
    } catch (const ApiError& e) {
      res.status = e.status;
      res.set_content(error_response(e.what()), kJson);
    } catch (const QueueFull& e) {
      res.status = 503;
      res.set_header("Retry-After", "1");
      res.set_content(error_response(e.what()), kJson);
    }  // anything else: the server's exception handler (500)
  };
}

void register_translate_file(httplib::Server& server,
                             httplib::Server::HandlerWithContentReader post,
                             TranslatedFiles& files) {
  server.Post("/translate_file", std::move(post));
  server.Get("/download_file/(.+)", [&files](const httplib::Request& req, httplib::Response& res) {
    download_file(req, res, files);
  });
}

}  // namespace atento
