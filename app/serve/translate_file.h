#pragma once
// POST /translate_file and GET /download_file/NAME, as LibreTranslate: a multipart/form-data
// upload (fields file, source, target, api_key) answered {"translatedFileUrl": URL}, the
// translated file then fetched from that URL (an attachment named as the upload) for 30
// minutes (app/serve/translated_files.h). Plain text (.txt) is translated line by line in
// windows of whole lines of at most --max-chars characters, each like a POST /translate.

#include <httplib.h>

#include <functional>
#include <string>
#include <vector>

#include "app/serve/access_control.h"
#include "app/serve/libretranslate_api.h"
#include "app/serve/translated_files.h"

namespace atento {

/// Translates `request` (its q is one string; lines are kept) and returns the translated text.
/// Throws ApiError, QueueFull.
using TextTranslator = std::function<std::string(const TranslateRequest& request)>;

/// Translates a whole document of one format (HTML: another helper's function) from `source`
/// to `target`; returns the translated document. Throws ApiError, QueueFull.
using DocumentTranslator = std::function<std::string(
    const std::string& document, const std::string& source, const std::string& target)>;

struct FileTranslators {
  /// .txt files: the text, window by window.
  TextTranslator text;
  /// .html/.htm files, translated whole (atento-serve: the translation of format "html"); when
  /// empty, those uploads are refused and supported_file_formats() does not list them.
  DocumentTranslator html;
};

/// The extensions accepted by POST /translate_file, with their dot (".txt" …), as
/// LibreTranslate's supportedFilesFormat lists them.
std::vector<std::string> supported_file_formats(const FileTranslators& translators);

/// The text of a .txt upload in windows of whole lines (line ends kept) of at most
/// `max_chars` characters each (a longer line alone).
std::vector<std::string> text_windows(const std::string& text, size_t max_chars);

/// The "translatedText" string of a POST /translate answer (translate_response's JSON).
std::string translated_text(const std::string& response);

/// The handler of POST /translate_file: `limits` and `files` must outlive it.
AccessControl::Handler translate_file_handler(const ApiLimits& limits, TranslatedFiles& files,
                                              FileTranslators translators);

/// Registers POST /translate_file (`post`: translate_file_handler, guarded and with its body
/// bounded) and GET /download_file/(NAME). `files` must outlive the server.
void register_translate_file(httplib::Server& server,
                             httplib::Server::HandlerWithContentReader post,
                             TranslatedFiles& files);

}  // namespace atento
