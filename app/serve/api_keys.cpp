#include "app/serve/api_keys.h"

#include <sstream>

#include "app/common/config.h"
#include "data/text_io.h"

namespace atento {

namespace {

constexpr size_t kLongestKey = 256;

std::string trim(const std::string& s) {
  const char* space = " \t\r";
  const size_t begin = s.find_first_not_of(space);
  if (begin == std::string::npos) return "";
  return s.substr(begin, s.find_last_not_of(space) - begin + 1);
}

/// The reason `key` is not a valid key; empty when it is.
std::string key_problem(const std::string& key) {
  if (key.size() > kLongestKey) {
    return "a key is at most " + std::to_string(kLongestKey) + " characters";
  }
  for (unsigned char c : key) {
    if (c <= ' ' || c >= 0x7f) {
      return "a key is printable ASCII without spaces (found byte " + std::to_string(c) + ")";
    }
  }
  return "";
}

}  // namespace

ApiKeys ApiKeys::parse(const std::string& text, const std::string& file) {
  ApiKeys keys;
  std::istringstream lines(text);
  std::string line;
  for (size_t number = 1; std::getline(lines, line); ++number) {
    std::string key = line;
    for (size_t hash = key.find('#'); hash != std::string::npos; hash = key.find('#', hash + 1)) {
      if (hash == key.find_first_not_of(" \t") || key[hash - 1] == ' ' || key[hash - 1] == '\t') {
        key.erase(hash);  // a comment: a whole line, or after a space
        break;
      }
    }
    key = trim(key);
    if (key.empty()) continue;
    const std::string problem = key_problem(key);
    if (!problem.empty()) {
      throw ConfigError(file + ":" + std::to_string(number) + ": invalid API key: " + problem);
    }
    keys.keys_.insert(key);
  }
  if (keys.keys_.empty()) throw ConfigError(file + ": no API key in the file");
  return keys;
}

ApiKeys ApiKeys::load(const std::string& file) {
  std::string text;
  try {
    text = data::read_whole_file(file, "the API keys file", 16 << 20);
  } catch (const std::runtime_error& e) {
    throw ConfigError(e.what());  // a bad --api-keys is a usage error (exit 2)
  }
  return parse(text, file);
}

KeyCheck ApiKeys::check(const std::string& key) const {
  if (keys_.empty()) return KeyCheck::kValid;
  if (key.empty()) return KeyCheck::kMissing;
  return keys_.count(key) > 0 ? KeyCheck::kValid : KeyCheck::kInvalid;
}

}  // namespace atento
