#pragma once
// The access log of atento-serve: one line per answered request,
//   2026-12-02T19:29:47.123Z 127.0.0.1 POST /translate 200 15.2ms 42chars
// (UTC time, client address, method, path without the query string, status, milliseconds from
// routing to the answer written, characters translated), to stderr or appended to a file.

#include <cstdio>
#include <mutex>
#include <string>

#include "app/serve/request_record.h"

namespace atento {

/// The line for `record`, with its newline. Bytes of the path outside printable ASCII, and
/// spaces, are written %XX so that a line always has seven fields.
std::string access_line(const RequestRecord& record);

class AccessLog {
 public:
  /// To stderr when `file` is empty or "-"; otherwise appended to `file` (created when
  /// missing). Throws ConfigError when the file cannot be opened.
  explicit AccessLog(const std::string& file);
  ~AccessLog();
  AccessLog(const AccessLog&) = delete;
  AccessLog& operator=(const AccessLog&) = delete;

  /// Writes one line (whole, whatever the threads writing at once); write errors are ignored.
  void write(const RequestRecord& record);

 private:
  std::FILE* out_;
  bool owned_;
  std::mutex mutex_;
};

}  // namespace atento
