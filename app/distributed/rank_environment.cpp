#include "app/distributed/rank_environment.h"

#include <cstdlib>
#include <string>

#include "app/common/config.h"

namespace atento {
namespace {

/// The integer in variable `name`, or `fallback` when unset; must lie in [low, high].
int64_t integer_variable(const char* (*get)(const char*), const char* name, int64_t fallback,
                         int64_t low, int64_t high) {
  const char* text = get(name);
  if (text == nullptr || *text == '\0') return fallback;
  std::string value = text;
  size_t used = 0;
  int64_t number = 0;
  try {
    number = std::stoll(value, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != value.size() || used == 0) {
    throw ConfigError("environment variable " + std::string(name) + ": expected an integer, got '" +
                      value + "'");
  }
  if (number < low || number > high) {
    throw ConfigError("environment variable " + std::string(name) + ": must be in [" +
                      std::to_string(low) + ", " + std::to_string(high) + "], got " + value);
  }
  return number;
}

const char* from_process_environment(const char* name) { return std::getenv(name); }

}  // namespace

RankEnvironment rank_environment(const char* (*get)(const char*)) {
  constexpr int64_t kMaxRanks = 1 << 20;
  RankEnvironment e;
  e.world_size = integer_variable(get, "WORLD_SIZE", 1, 1, kMaxRanks);
  e.rank = integer_variable(get, "RANK", 0, 0, e.world_size - 1);
  e.local_rank = integer_variable(get, "LOCAL_RANK", e.rank, 0, e.world_size - 1);
  e.local_world_size = integer_variable(get, "LOCAL_WORLD_SIZE", e.world_size, 1, e.world_size);
  e.master_port = integer_variable(get, "MASTER_PORT", e.master_port, 1, 65535);
  if (const char* addr = get("MASTER_ADDR"); addr != nullptr && *addr != '\0') {
    e.master_addr = addr;
  }
  const char* world = get("WORLD_SIZE");
  e.in_group = world != nullptr && *world != '\0';
  if (e.world_size > 1 && get("RANK") == nullptr) {
    throw ConfigError("environment variable RANK: must be set when WORLD_SIZE is " +
                      std::to_string(e.world_size));
  }
  return e;
}

RankEnvironment rank_environment() { return rank_environment(&from_process_environment); }

}  // namespace atento
