#pragma once
// Whole-file reads and the one atomic, durable file writer of the project: every file the
// programs write in one piece (weights, optimizer state, checkpoint pointer, training state,
// configuration, tokenizers, splits, reports) goes through write_file_atomically.

#include <cstdint>
#include <string>
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

/// Flushes the entries of directory `dir` ("" = the current one) to disk, so that files created
/// or renamed in it survive a power loss; throws std::runtime_error naming it on failure.
void sync_directory(const std::string& dir);

}  // namespace atento::data
