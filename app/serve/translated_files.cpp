#include "app/serve/translated_files.h"

#include <cctype>
#include <random>

namespace atento {

namespace {

std::string random_id() {
  thread_local std::random_device device;
  thread_local std::mt19937_64 bits(
      (static_cast<uint64_t>(device()) << 32) ^ device() ^
      static_cast<uint64_t>(std::chrono::steady_clock::now().time_since_epoch().count()));
  static const char* hex = "0123456789abcdef";
  std::string id;
  for (int half = 0; half < 2; ++half) {
    uint64_t v = bits() ^ (static_cast<uint64_t>(device()) << 32);
    for (int i = 0; i < 16; ++i, v >>= 4) id += hex[v & 15];
  }
  return id;
}

}  // namespace

std::string safe_file_name(const std::string& name) {
  std::string base =
      name.substr(name.find_last_of("/\\") == std::string::npos ? 0 : name.find_last_of("/\\") + 1);
  std::string out;
  for (unsigned char c : base) {
    out += (std::isalnum(c) && c < 0x80) || c == '.' || c == '-' || c == '_' ? static_cast<char>(c)
                                                                             : '_';
  }
  out.erase(0, out.find_first_not_of('.'));
  if (out.size() > 100) {
    const size_t dot = out.rfind('.');
    const std::string ext =
        dot != std::string::npos && out.size() - dot <= 16 ? out.substr(dot) : "";
    out = out.substr(0, 100 - ext.size()) + ext;
  }
  return out.empty() || out == std::string(out.size(), '_') ? "file" + out : out;
}

TranslatedFiles::TranslatedFiles(FileStoreLimits limits, Clock clock)
    : limits_(limits),
      clock_(clock ? std::move(clock) : Clock([] { return std::chrono::steady_clock::now(); })) {}

void TranslatedFiles::evict(std::chrono::steady_clock::time_point now) {
  while (!by_age_.empty()) {
    auto oldest = files_.find(by_age_.begin()->second);
    const bool expired = now - oldest->second.stored > limits_.keep;
    if (!expired && files_.size() <= limits_.max_files && bytes_ <= limits_.max_bytes) return;
    bytes_ -= oldest->second.file.content.size();
    by_age_.erase(by_age_.begin());
    files_.erase(oldest);
  }
}

std::string TranslatedFiles::put(StoredFile file) {
  const auto now = clock_();
  std::string id = random_id() + "." + file.name;
  std::lock_guard<std::mutex> lock(mutex_);
  bytes_ += file.content.size();
  by_age_.emplace(next_order_, id);
  files_.emplace(id, Entry{std::move(file), now, next_order_++});
  evict(now);
  return id;
}

std::optional<StoredFile> TranslatedFiles::get(const std::string& id) {
  std::lock_guard<std::mutex> lock(mutex_);
  evict(clock_());
  auto found = files_.find(id);
  if (found == files_.end()) return std::nullopt;
  return found->second.file;
}

size_t TranslatedFiles::size() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return files_.size();
}

size_t TranslatedFiles::bytes() const {
  std::lock_guard<std::mutex> lock(mutex_);
  return bytes_;
}

}  // namespace atento
