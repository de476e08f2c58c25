#include "data/line_reader.h"

#include <fcntl.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

namespace atento::data {

LineReader::LineReader(const std::string& path) : path_(path.empty() ? "<stdin>" : path) {
  if (!path.empty()) {
    fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd_ < 0) throw std::runtime_error(path + ": cannot open input: " + std::strerror(errno));
    owned_ = true;
  }
  struct stat info {};
  if (::fstat(fd_, &info) != 0) {
    throw std::runtime_error(path_ + ": cannot open input: " + std::strerror(errno));
  }
  if (S_ISDIR(info.st_mode)) throw std::runtime_error(path_ + ": cannot open input: a directory");
  interactive_ = !S_ISREG(info.st_mode) && !S_ISBLK(info.st_mode);
}

LineReader::~LineReader() {
  if (owned_) ::close(fd_);
}

bool LineReader::fill(bool wait) {
  if (eof_) return false;
  if (!wait) {
    struct pollfd ready {
      fd_, POLLIN, 0
    };
    if (::poll(&ready, 1, 0) <= 0) return false;  // nothing has arrived yet
  }
  if (start_ > 0) {  // keep the buffer to the unread bytes
    buffer_.erase(0, start_);
    start_ = 0;
  }
  char chunk[1 << 16];
  ssize_t n;
  do {
    n = ::read(fd_, chunk, sizeof chunk);
  } while (n < 0 && errno == EINTR);
  if (n < 0) throw std::runtime_error(path_ + ": read error: " + std::strerror(errno));
  if (n == 0) {
    eof_ = true;
    return false;
  }
  buffer_.append(chunk, static_cast<size_t>(n));
  return true;
}

bool LineReader::take_line(std::string& line) {
  const size_t newline = buffer_.find('\n', start_);
  if (newline == std::string::npos) {
    if (!eof_ || start_ >= buffer_.size()) return false;
    line.assign(buffer_, start_, std::string::npos);  // the last line, without a newline
    start_ = buffer_.size();
  } else {
    line.assign(buffer_, start_, newline - start_);
    start_ = newline + 1;
    if (!terminated_) crlf_ = !line.empty() && line.back() == '\r';
    terminated_ = true;
  }
  if (!line.empty() && line.back() == '\r') line.pop_back();
  return true;
}

bool LineReader::next_window(std::vector<std::string>& lines, size_t max) {
  lines.clear();
  std::string line;
  while (lines.size() < std::max<size_t>(1, max)) {
    if (take_line(line)) {
      lines.push_back(std::move(line));
      continue;
    }
    if (eof_) break;  // nothing left
    // Wait for bytes while the window is empty, and always from a regular file; from an
    // interactive input take only what has arrived.
    const bool wait = lines.empty() || !interactive_;
    if (!fill(wait) && !eof_) break;
  }
  return !lines.empty();
}

}  // namespace atento::data
