#pragma once
// Whole-file reads and the one atomic, durable file writer of the project: every file the
// programs write in one piece (weights, optimizer state, checkpoint pointer, training state,
// configuration, tokenizers, splits, reports) goes through write_file_atomically.

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace atento::data {

/// No limit on the size of a file read whole.
inline constexpr std::uint64_t kNoSizeLimit = UINT64_MAX;

/// The whole file as bytes; throws std::runtime_error "cannot read <what> <path>: <reason>",
/// also when the file holds more than `max_bytes` (checked before anything is allocated).
std::string read_whole_file(const std::string& path, const std::string& what,
                            std::uint64_t max_bytes = kNoSizeLimit);

/// Every line of `path` (stdin when `path` is empty), without its terminator (LF or CRLF);
/// throws std::runtime_error "<path>: cannot open input".
std::vector<std::string> read_lines(const std::string& path);

/// Replaces `path` with `content` so that a reader, a crash or a power loss sees either the old
/// file or the new one, never a mixture: write a temporary file next to `path`, fsync it,
/// rename it over `path`, fsync the directory. Creates missing parent directories. On failure
/// (full disk, I/O error, permissions) throws std::runtime_error naming the file and the
/// reason, removes the temporary file and leaves the old `path` untouched.
/// Only regular files (and new paths) are replaced so: a `path` that is a device, FIFO, socket
/// or terminal (or a symlink to one), or a descriptor of this process (`/dev/stdout`,
/// `/dev/fd/N`), is opened and written in place (appending), never replaced, and a
/// write error there (`/dev/full`) throws too; a symlink to a regular file stays a symlink and
/// its target is replaced.
void write_file_atomically(const std::string& path, const std::string& content);

/// A file written in pieces, with what write_file_atomically does to `path`: a regular file or
/// new path is written to a temporary file beside it that commit() flushes to disk and renames
/// over it; anything else (a device, FIFO, socket or terminal, /dev/stdout, /dev/fd/N; and
/// standard output for "") is written in place as the pieces come. Destroyed without commit()
/// (an error, an exception), it removes its temporary file and leaves the old file untouched.
/// Errors throw std::runtime_error "cannot write <file>: <reason>".
class OutputFile {
 public:
  /// Opens `path` for writing ("" = standard output).
  explicit OutputFile(const std::string& path);
  ~OutputFile();
  OutputFile(const OutputFile&) = delete;
  OutputFile& operator=(const OutputFile&) = delete;

  /// Appends `bytes` (written to the file or stream at once: nothing is buffered here).
  void write(std::string_view bytes);
  /// Makes the whole file durable and visible under its name (in place: closes it).
  void commit();

 private:
  std::string path_;       ///< as errors name it
  std::string target_;     ///< the regular file replaced; "" when written in place
  std::string temporary_;  ///< the file written until commit(); "" when in place
  int fd_ = -1;
  bool owned_ = false;
  bool committed_ = false;
};

/// Flushes the entries of directory `dir` ("" = the current one) to disk, so that files created
/// or renamed in it survive a power loss; throws std::runtime_error naming it on failure.
void sync_directory(const std::string& dir);

}  // namespace atento::data
