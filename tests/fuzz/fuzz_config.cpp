// libFuzzer target: the configuration parser. An input is a JSON file, optionally followed by
// "\n--\n" and one `--set section.key=value` override per line; load_config parses, applies the
// overrides and validates. It may only throw ConfigError (or std::runtime_error).
#include <cstdint>
#include <nlohmann/json.hpp>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "app/common/config.h"
#include "tests/fuzz/fuzz_util.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  using namespace atento;
  const auto [json_text, set_text] = fuzz::split_input(data, size);
  const std::string path = fuzz::write_scratch(
      "config.json", reinterpret_cast<const uint8_t*>(json_text.data()), json_text.size());
  std::vector<std::string> overrides;
  std::istringstream lines(set_text);
  for (std::string line; std::getline(lines, line);) overrides.push_back(line);
  try {
    const Config config = load_config(path, overrides);
    // A valid configuration survives the round trip the model directory makes.
    const Config again = config_from_json(config_to_json(config), "round trip", {});
    if (config_to_json(again) != config_to_json(config)) std::abort();
    require_section(overrides, "translate");
  } catch (const ConfigError&) {
  } catch (const std::runtime_error&) {
  }
  return 0;
}
