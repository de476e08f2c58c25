#include "app/common/event_log.h"

#include <stdexcept>

namespace atento {

JsonlLog::JsonlLog(const std::string& path) : out_(path, std::ios::app), path_(path) {
  if (!out_) throw std::runtime_error(path + ": cannot open log for appending");
}

void JsonlLog::write(const nlohmann::json& event) {
  out_ << event.dump() << '\n';
  out_.flush();
  if (!out_) throw std::runtime_error(path_ + ": cannot write log");
}

}  // namespace atento
