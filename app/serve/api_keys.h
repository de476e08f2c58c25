#pragma once
// --api-keys FILE: the keys a request must carry (field api_key), one per line; blank lines
// and lines starting with '#' are skipped, and so is anything after " #" on a key's line.

#include <string>
#include <unordered_set>

namespace atento {

/// What a request's api_key is worth.
enum class KeyCheck { kValid, kMissing, kInvalid };

class ApiKeys {
 public:
  /// No keys: every request is let in.
  ApiKeys() = default;

  /// Parses the text of a keys file named `file` (for messages). A key is 1..256 printable
  /// ASCII characters without spaces. Throws ConfigError "FILE:LINE: …" on a bad line, and
  /// when the file holds no key.
  static ApiKeys parse(const std::string& text, const std::string& file);
  /// Reads and parses `file`; ConfigError when it cannot be read.
  static ApiKeys load(const std::string& file);

  /// Whether keys are required at all.
  bool enabled() const { return !keys_.empty(); }
  size_t size() const { return keys_.size(); }
  /// kValid when keys are not required or `key` is one of them; an empty key is missing.
  KeyCheck check(const std::string& key) const;

 private:
  std::unordered_set<std::string> keys_;
};

}  // namespace atento
