#include "app/serve/libretranslate_api.h"

#include <algorithm>
#include <cctype>
#include <cstdio>
#include <map>
#include <nlohmann/json.hpp>

#include "data/utf8.h"

namespace atento {

namespace {

using nlohmann::json;

[[noreturn]] void invalid(const std::string& what) {
  throw ApiError(400, "Invalid request: " + what);
}

/// Lower-cased media type without parameters ("application/json; charset=utf-8" → …json).
std::string media_type(const std::string& content_type) {
  std::string type = content_type.substr(0, content_type.find(';'));
  type.erase(std::remove_if(type.begin(), type.end(), [](unsigned char c) { return c == ' '; }),
             type.end());
  std::transform(type.begin(), type.end(), type.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return type;
}

/// A form as a JSON object of strings; a repeated q becomes an array.
json form_to_json(const std::string& body) {
  json fields = json::object();
  for (auto& [name, value] : parse_form(body)) {
    if (!data::is_valid_utf8(value)) invalid("the value of " + name + " is not valid UTF-8");
    if (name == "q" && fields.contains("q")) {
      if (!fields["q"].is_array()) fields["q"] = json::array({fields["q"]});
      fields["q"].push_back(value);
    } else {
      fields[name] = value;
    }
  }
  return fields;
}

json parse_body(const std::string& body, const std::string& content_type) {
  const std::string type = media_type(content_type);
  if (type == "application/x-www-form-urlencoded") return form_to_json(body);
  if (!type.empty() && type != "application/json") {
    throw ApiError(415, "Unsupported Content-Type '" + type +
                            "': send application/json or application/x-www-form-urlencoded");
  }
  try {
    return json::parse(body);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e400
    invalid(std::string("body is not valid JSON (") + e.what() + ")");
  }
}

std::vector<std::string> parse_q(const json& fields, const ApiLimits& limits, bool* is_array) {
  if (!fields.contains("q") || fields["q"].is_null()) invalid("missing q parameter");
  const json& q = fields["q"];
  *is_array = q.is_array();
  if (!q.is_string() && !q.is_array()) invalid("q must be a string or an array of strings");
  std::vector<std::string> texts;
  for (const auto& item : *is_array ? q : json::array({q})) {
    if (!item.is_string()) invalid("q must be a string or an array of strings");
    texts.push_back(item.get<std::string>());
  }
  if (texts.empty() || (!*is_array && texts[0].empty())) invalid("missing q parameter");
  if (texts.size() > limits.max_strings) {
    invalid("q has " + std::to_string(texts.size()) + " strings, more than the limit of " +
            std::to_string(limits.max_strings));
  }
  size_t chars = 0;
  for (size_t i = 0; i < texts.size(); ++i) {
    // JSON strings are valid UTF-8 once parsed; form values were checked; NUL is refused as
    // the corpus reader refuses it.
    if (texts[i].find('\0') != std::string::npos) invalid("q contains a NUL character");
    chars += data::utf8_length(texts[i]);
  }
  if (chars > limits.max_chars) {
    invalid("q has " + std::to_string(chars) + " characters, more than the limit of " +
            std::to_string(limits.max_chars));
  }
  return texts;
}

std::string string_field(const json& fields, const std::string& name, const std::string& fallback) {
  if (!fields.contains(name) || fields[name].is_null()) {
    if (fallback.empty()) invalid("missing " + name + " parameter");
    return fallback;
  }
  if (!fields[name].is_string()) invalid(name + " must be a string");
  return fields[name].get<std::string>();
}

/// An integer field in [lo, hi]: a JSON integer, or a decimal string (forms); absent → -1.
int64_t int_field(const json& fields, const std::string& name, int64_t lo, int64_t hi) {
  if (!fields.contains(name) || fields[name].is_null()) return -1;
  const json& v = fields[name];
  const std::string text = v.is_string() ? v.get<std::string>() : "";
  int64_t n = 0;
  if (v.is_number_integer()) {
    n = v.get<int64_t>();
  } else if (!text.empty() && text.size() < 10 &&
             std::all_of(text.begin(), text.end(),
                         [](unsigned char c) { return std::isdigit(c); })) {
    n = std::stoll(text);
  } else {
    invalid(name + " must be an integer");
  }
  if (n < lo || n > hi) {
    invalid(name + " must be between " + std::to_string(lo) + " and " + std::to_string(hi));
  }
  return n;
}

void check_languages(const TranslateRequest& request, const LanguagePair& languages,
                     const std::string& format) {
  if (request.source != languages.source && request.source != "auto") {
    invalid(request.source + " is not supported as a source language (only " + languages.source +
            " or auto)");
  }
  if (request.target != languages.target) {
    invalid(request.target + " is not supported as a target language (only " + languages.target +
            ")");
  }
  if (format != "text" && format != "html") {
    invalid("format " + format + " is not supported (text or html)");
  }
}

/// Texts shorter than this many characters are identified together with the request's other
/// strings (as LibreTranslate does): a few words say little about their language.
constexpr size_t kShortText = 40;

/// The language a string of a `source: "auto"` request is taken to be in. Refuses (400) a
/// string that the identifier reliably finds in another language than the model's source.
LanguageGuess source_language(const std::string& text, const std::string& all_text,
                              const LanguagePair& languages) {
  const LanguageIdentification found =
      identify_language(data::utf8_length(text) > kShortText ? text : all_text);
  if (found.reliable && found.candidates[0].language != languages.source) {
    const LanguageGuess& other = found.candidates[0];
    char confidence[16];
    std::snprintf(confidence, sizeof confidence, "%.0f", other.confidence);
    throw ApiError(400, other.language + " is not supported: the text was detected as " +
                            language_name(other.language) + " (" + other.language + ", " +
                            confidence + "% confidence) and this model translates " +
                            languages.source + " to " + languages.target);
  }
  for (const auto& guess : found.candidates) {
    if (guess.language == languages.source) return guess;
  }
  return {languages.source, 0.0};
}

std::vector<LanguageGuess> detect_sources(const std::vector<std::string>& q,
                                          const LanguagePair& languages) {
  std::string all_text;
  for (const auto& text : q) all_text += text + "\n";
  std::vector<LanguageGuess> detected;
  for (const auto& text : q) detected.push_back(source_language(text, all_text, languages));
  return detected;
}

/// Lines of one string (LF or CRLF): each is translated on its own, as atento-translate does.
std::vector<std::string> split_lines(const std::string& text) {
  std::vector<std::string> lines;
  size_t begin = 0;
  while (true) {
    size_t end = text.find('\n', begin);
    std::string line = text.substr(begin, end == std::string::npos ? end : end - begin);
    if (!line.empty() && line.back() == '\r') line.pop_back();
    lines.push_back(std::move(line));
    if (end == std::string::npos) return lines;
    begin = end + 1;
  }
}

}  // namespace

std::vector<std::pair<std::string, std::string>> parse_form(const std::string& body) {
  auto decode = [](const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
      if (s[i] == '+') {
        out += ' ';
      } else if (s[i] != '%') {
        out += s[i];
      } else if (i + 2 < s.size() && std::isxdigit(static_cast<unsigned char>(s[i + 1])) &&
                 std::isxdigit(static_cast<unsigned char>(s[i + 2]))) {
        out += static_cast<char>(std::stoi(s.substr(i + 1, 2), nullptr, 16));
        i += 2;
      } else {
        invalid("malformed %-escape in the form body");
      }
    }
    return out;
  };
  std::vector<std::pair<std::string, std::string>> fields;
  size_t begin = 0;
  while (begin <= body.size()) {
    size_t end = std::min(body.find('&', begin), body.size());
    std::string part = body.substr(begin, end - begin);
    if (!part.empty()) {
      size_t eq = part.find('=');
      fields.emplace_back(decode(part.substr(0, eq)),
                          eq == std::string::npos ? "" : decode(part.substr(eq + 1)));
    }
    begin = end + 1;
  }
  return fields;
}

TranslateRequest parse_translate_request(const std::string& body, const std::string& content_type,
                                         const ApiLimits& limits) {
  json fields = parse_body(body, content_type);
  if (!fields.is_object()) invalid("the body must be a JSON object");
  TranslateRequest request;
  request.q = parse_q(fields, limits, &request.q_is_array);
  request.source = string_field(fields, "source", "");
  request.target = string_field(fields, "target", "");
  const std::string format = string_field(fields, "format", "text");
  check_languages(request, limits.languages, format);
  request.html = format == "html";
  if (request.source == "auto") request.detected = detect_sources(request.q, limits.languages);
  int64_t beam = int_field(fields, "beam", 1, limits.max_beam);
  int64_t alternatives = int_field(fields, "alternatives", 0, limits.max_beam - 1);
  request.alternatives = std::max<int64_t>(0, alternatives);
  if (request.html && request.alternatives > 0) invalid("alternatives are for format text only");
  if (beam > 0 && beam < request.alternatives + 1) {
    invalid("beam " + std::to_string(beam) + " cannot give " +
            std::to_string(request.alternatives) + " alternatives (needs beam > alternatives)");
  }
  request.beam = beam > 0 ? beam : std::max(limits.default_beam, request.alternatives + 1);
  return request;
}

std::vector<TranslationJob> translation_jobs(const TranslateRequest& request) {
  std::vector<TranslationJob> jobs;
  for (const auto& text : request.q) {
    for (auto& line : split_lines(text)) {
      jobs.push_back(TranslationJob{std::move(line), request.beam, request.alternatives + 1});
    }
  }
  return jobs;
}

std::string translate_response(const TranslateRequest& request,
                               const std::vector<TranslationResult>& results,
                               const std::vector<std::string>& warnings) {
  json texts = json::array(), alternatives = json::array(), detected = json::array();
  size_t next = 0;
  for (size_t i = 0; i < request.q.size(); ++i) {
    const std::string& text = request.q[i];
    // One string's ranks: rank r of every line, joined by newlines.
    std::vector<std::string> ranks(request.alternatives + 1);
    size_t lines = request.html ? 1 : split_lines(text).size();
    for (size_t l = 0; l < lines; ++l, ++next) {
      const auto& found = results.at(next);
      for (size_t r = 0; r < ranks.size(); ++r) {
        if (l > 0) ranks[r] += '\n';
        ranks[r] += r < found.size() ? found[r] : (found.empty() ? "" : found.back());
      }
    }
    texts.push_back(ranks[0]);
    alternatives.push_back(std::vector<std::string>(ranks.begin() + 1, ranks.end()));
    if (!request.detected.empty()) {
      const LanguageGuess& guess = request.detected.at(i);
      detected.push_back({{"confidence", guess.confidence}, {"language", guess.language}});
    }
  }
  json response;
  response["translatedText"] = request.q_is_array ? texts : texts[0];
  if (request.alternatives > 0) {
    response["alternatives"] = request.q_is_array ? alternatives : alternatives[0];
  }
  if (request.source == "auto") {
    response["detectedLanguage"] = request.q_is_array ? detected : detected[0];
  }
  if (!warnings.empty()) response["warnings"] = warnings;
  return response.dump(-1, ' ', false, json::error_handler_t::replace);
}

std::string language_name(const std::string& code) {
  static const std::map<std::string, std::string> names = {
      {"ar", "Arabic"},  {"ca", "Catalan"},    {"de", "German"},  {"en", "English"},
      {"es", "Spanish"}, {"fr", "French"},     {"it", "Italian"}, {"ja", "Japanese"},
      {"nl", "Dutch"},   {"pt", "Portuguese"}, {"ru", "Russian"}, {"zh", "Chinese"}};
  auto found = names.find(code.substr(0, code.find('-')));
  return found == names.end() ? code : found->second;
}

std::string languages_response(const LanguagePair& languages) {
  return json::array({{{"code", languages.source},
                       {"name", language_name(languages.source)},
                       {"targets", {languages.target}}},
                      {{"code", languages.target},
                       {"name", language_name(languages.target)},
                       {"targets", json::array()}}})
      .dump();
}

LanguageGuess detect_source(const std::string& text, const LanguagePair& languages) {
  return source_language(text, text, languages);
}

std::string parse_detect_request(const std::string& body, const std::string& content_type,
                                 const ApiLimits& limits) {
  json fields = parse_body(body, content_type);
  if (!fields.is_object()) invalid("the body must be a JSON object");
  if (fields.contains("q") && !fields["q"].is_null() && !fields["q"].is_string()) {
    invalid("q must be a string");
  }
  bool is_array = false;
  return parse_q(fields, limits, &is_array).at(0);
}

std::string detect_response(const LanguageIdentification& found, const LanguagePair& languages) {
  json answer = json::array();
  for (const auto& guess : found.candidates) {
    answer.push_back({{"confidence", guess.confidence}, {"language", guess.language}});
  }
  if (answer.empty()) answer.push_back({{"confidence", 0.0}, {"language", languages.source}});
  return answer.dump();
}

std::string error_response(const std::string& message) {
  // Replaces invalid UTF-8 (a message may quote the request) rather than failing.
  return json{{"error", message}}.dump(-1, ' ', false, json::error_handler_t::replace);
}

}  // namespace atento
