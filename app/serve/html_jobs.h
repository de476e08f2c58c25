#pragma once
// HTML documents in atento-serve: POST /translate with format "html" (each string of q one
// document) and .html files of POST /translate_file. A document needs the model's cross
// attention to put its inline markup back (app/translate/html_translation.h), which the
// continuous batcher does not record: it is translated on the connection's own thread by
// translate_html, the path of atento-translate --format html (so both give the same document
// for the same text and settings), one document at a time over the whole server, each within
// the request limits of the text it holds (ApiLimits: characters, body size).

#include <cstdint>
#include <string>
#include <vector>

#include "app/model_dir/model_dir.h"
#include "app/serve/libretranslate_api.h"

namespace atento {

/// A document translated, with the warnings for the client (text cut to the source length).
struct HtmlResult {
  std::string html;
  std::vector<std::string> warnings;
};

/// Translates one HTML document with `beam` (the model's translate.beam when 0), sentence by
/// sentence unless translate.split_sentences is off. Thread-safe: callers wait for the document
/// in progress. Throws ApiError 400 for HTML that cannot be read (invalid UTF-8, NUL, nesting
/// deeper than 256 elements). For POST /translate_file with a .html file.
HtmlResult translate_html_document(TrainedModel& trained, const std::string& html, int64_t beam);

/// The JSON answer to a POST /translate whose format is html: translate_response with one
/// document per string of q. Throws ApiError as translate_html_document does.
std::string translate_html_request(TrainedModel& trained, const TranslateRequest& request);

}  // namespace atento
