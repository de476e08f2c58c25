#pragma once
// Lines of a file or of standard input, read in windows: memory holds one window, never the
// whole input, and an interactive input (a pipe, a terminal) is answered line by line.

#include <cstddef>
#include <string>
#include <vector>

namespace atento::data {

class LineReader {
 public:
  /// `path` ("" = standard input); throws std::runtime_error "<path>: cannot open input".
  explicit LineReader(const std::string& path);
  ~LineReader();
  LineReader(const LineReader&) = delete;
  LineReader& operator=(const LineReader&) = delete;

  /// False for a regular file; true for a pipe, a terminal or a socket, whose next line may
  /// depend on the answer to this one.
  bool interactive() const { return interactive_; }

  /// The next lines, at most `max` (≥ 1), without their terminators (LF or CRLF) into `lines`
  /// (replaced). From a regular file it reads until the window is full; from an interactive
  /// input it waits for one line, then takes only the lines that have already arrived. A last
  /// line without a newline counts. Returns false at the end of the input (no line).
  bool next_window(std::vector<std::string>& lines, size_t max);

  /// How the input's lines end, for the lines written in answer: "\r\n" where the first line
  /// read with a terminator ended in CRLF (a file written on Windows), else "\n".
  const char* line_end() const { return crlf_ ? "\r\n" : "\n"; }

 private:
  /// Reads more bytes into buffer_; `wait`: block until some arrive. False when none came.
  bool fill(bool wait);
  /// Moves the next complete line of buffer_ (or, at the end, the rest) into `line`.
  bool take_line(std::string& line);

  std::string path_;
  int fd_ = 0;
  bool owned_ = false;
  bool interactive_ = false;
  bool eof_ = false;
  bool terminated_ = false;  ///< a line with a terminator was read: crlf_ is decided
  bool crlf_ = false;
  std::string buffer_;
  size_t start_ = 0;  ///< first unread byte of buffer_
};

}  // namespace atento::data
