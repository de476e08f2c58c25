#include "app/serve/access_log.h"

#include <cerrno>
#include <cstring>
#include <ctime>

#include "app/common/config.h"

namespace atento {

namespace {

std::string utc_time(std::chrono::system_clock::time_point t) {
  const auto since = t.time_since_epoch();
  const std::time_t seconds = std::chrono::duration_cast<std::chrono::seconds>(since).count();
  const auto millis = std::chrono::duration_cast<std::chrono::milliseconds>(since).count() % 1000;
  std::tm tm{};
  gmtime_r(&seconds, &tm);
  char text[40];
  std::strftime(text, sizeof text, "%Y-%m-%dT%H:%M:%S", &tm);
  char out[48];
  std::snprintf(out, sizeof out, "%s.%03dZ", text, static_cast<int>(millis));
  return out;
}

std::string escaped(const std::string& text) {
  std::string out;
  for (unsigned char c : text) {
    if (c > ' ' && c < 0x7f && c != '%') {
      out += static_cast<char>(c);
    } else {
      char hex[4];
      std::snprintf(hex, sizeof hex, "%%%02X", c);
      out += hex;
    }
  }
  return out.empty() ? "-" : out;
}

}  // namespace

std::string access_line(const RequestRecord& r) {
  char numbers[96];
  std::snprintf(numbers, sizeof numbers, " %d %.1fms %zuchars\n", r.status, r.milliseconds,
                r.characters);
  return utc_time(r.time) + " " + escaped(r.client) + " " + escaped(r.method) + " " +
         escaped(r.path) + numbers;
}

AccessLog::AccessLog(const std::string& file) : out_(stderr), owned_(false) {
  if (file.empty() || file == "-") return;
  out_ = std::fopen(file.c_str(), "a");
  if (out_ == nullptr) {
    throw ConfigError("cannot open the access log " + file + ": " + std::strerror(errno));
  }
  owned_ = true;
}

AccessLog::~AccessLog() {
  if (owned_) std::fclose(out_);
}

void AccessLog::write(const RequestRecord& record) {
  const std::string line = access_line(record);
  std::lock_guard<std::mutex> lock(mutex_);
  std::fwrite(line.data(), 1, line.size(), out_);
  std::fflush(out_);
}

}  // namespace atento
