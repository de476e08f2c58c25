#pragma once
// The LibreTranslate API subset that atento-serve speaks: parsing and validating a
// POST /translate body (JSON or application/x-www-form-urlencoded), and building the JSON
// bodies of its answers. No HTTP here: the server hands in the body and its Content-Type.

#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/serve/language_id.h"
#include "app/serve/request_batcher.h"

namespace atento {

/// A request that cannot be served; `status` is the HTTP status to answer with (4xx).
class ApiError : public std::runtime_error {
 public:
  /// A NUL in `message` (a value of the request quoted) is written as the six characters \u0000:
  /// what() is a C string, which would end there.
  ApiError(int status, const std::string& message)
      : std::runtime_error(without_nul(message)), status(status) {}
  int status;

 private:
  static std::string without_nul(std::string text) {
    for (size_t at; (at = text.find('\0')) != std::string::npos;) text.replace(at, 1, "\\u0000");
    return text;
  }
};

/// The language codes a model translates between (its data.source_lang, data.target_lang).
struct LanguagePair {
  std::string source = "en";
  std::string target = "es";
};

/// What one POST /translate may ask for.
struct ApiLimits {
  /// Most characters (Unicode code points) over all strings of `q`.
  size_t max_chars = 5000;
  /// Most strings in an array `q`.
  size_t max_strings = 64;
  /// Largest `beam` a request may ask for.
  int64_t max_beam = 8;
  /// Beam used when the request names none.
  int64_t default_beam = 1;
  /// The only pair a request may ask for (source may also be "auto").
  LanguagePair languages;
};

/// A validated POST /translate.
struct TranslateRequest {
  std::vector<std::string> q;  ///< valid UTF-8, at least one; an empty string stays empty
  bool q_is_array = false;     ///< answer with arrays (q was a JSON array)
  std::string source;          ///< the model's source language, or "auto"
  std::string target;          ///< the model's target language
  /// With source "auto": per string, the language taken for it (always the model's source
  /// language: a string detected as another is refused) and the detector's confidence.
  std::vector<LanguageGuess> detected;
  int64_t beam = 1;            ///< extra field: beam width (1 = greedy)
  int64_t alternatives = 0;    ///< LibreTranslate's field: extra translations per string
  bool html = false;           ///< format "html": each string of q is one HTML document
};

/// Parses and validates a POST /translate body. `content_type` selects JSON
/// (application/json, or none) or a form (application/x-www-form-urlencoded); fields other
/// than q, source, target, format, beam and alternatives (api_key…) are ignored.
/// Throws ApiError: 400 invalid body, field or language pair; 415 other content types.
TranslateRequest parse_translate_request(const std::string& body, const std::string& content_type,
                                         const ApiLimits& limits);

/// The language `text` is taken to be in with `source: "auto"`: the model's source language,
/// with the identifier's confidence (0 when it found nothing). Throws ApiError 400 naming the
/// language when the identifier reliably finds another.
LanguageGuess detect_source(const std::string& text, const LanguagePair& languages);

/// Parses a POST /detect body (JSON or form, as /translate): its one string q, at most
/// limits.max_chars characters. Throws ApiError as parse_translate_request does.
std::string parse_detect_request(const std::string& body, const std::string& content_type,
                                 const ApiLimits& limits);

/// [{"confidence": …, "language": …}, …], most likely first. When nothing was identified,
/// LibreTranslate's answer: the first language it serves (`languages.source`), confidence 0.
std::string detect_response(const LanguageIdentification& found, const LanguagePair& languages);

/// The jobs the batcher decodes for `request`: one per string of q.
std::vector<TranslationJob> translation_jobs(const TranslateRequest& request);

/// {"translatedText": …} (string or array, as q was), with "alternatives" when asked for and
/// "detectedLanguage" when source was "auto"; one result (best first) per line of each string
/// of q (per string for html). Extra
/// field "warnings" (an array of messages, e.g. text cut to the model's source length) when
/// `warnings` is not empty: LibreTranslate clients ignore it.
std::string translate_response(const TranslateRequest& request,
                               const std::vector<TranslationResult>& results,
                               const std::vector<std::string>& warnings = {});

/// GET /languages: [{"code":"en","name":"English","targets":["es"]}, {"code":"es", …}] for
/// the model's pair.
std::string languages_response(const LanguagePair& languages);

/// The English name of a language code, as LibreTranslate lists it ("en" → "English"); the
/// code itself for one not known here.
std::string language_name(const std::string& code);

/// The Content-Type of every answer of the API.
constexpr const char* kJson = "application/json";

/// {"error": message}.
std::string error_response(const std::string& message);

/// Decodes an application/x-www-form-urlencoded body into (name, value) pairs, in order
/// ('+' is a space, %XX a byte). Throws ApiError 400 on a malformed %-escape.
std::vector<std::pair<std::string, std::string>> parse_form(const std::string& body);

}  // namespace atento
