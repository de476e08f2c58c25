#pragma once
// log.jsonl: one JSON object per event of a training run (steps, validations, the end).

#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

namespace atento {

/// Appends one JSON object per line to `path`, flushed at once (a crash loses no line).
class JsonlLog {
 public:
  explicit JsonlLog(const std::string& path);
  void write(const nlohmann::json& event);

 private:
  std::ofstream out_;
  std::string path_;
};

}  // namespace atento
