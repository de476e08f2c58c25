#include "app/cli/cli.h"

#include <c10/util/Exception.h>

#include <iostream>
#include <string>

#include "app/common/config.h"

namespace atento {

int parse_command_line(CLI::App& app, int argc, char** argv) {
  try {
    app.parse(argc, argv);
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::cerr << "error: " << e.what() << "\n(run " << app.get_name() << " --help for usage)\n";
    return kExitUsage;
  }
  return -1;
}

CLI::Validator integer_range(int64_t min, int64_t max) {
  std::string description =
      max == INT64_MAX ? "INT >= " + std::to_string(min)
                       : "INT in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  auto check = [min, max](std::string& text) -> std::string {
    size_t used = 0;
    long long value = 0;
    try {
      value = std::stoll(text, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used == 0 || used != text.size()) return "expected an integer, got '" + text + "'";
    if (value < min) return "must be at least " + std::to_string(min) + ", got " + text;
    if (value > max) return "must be at most " + std::to_string(max) + ", got " + text;
    return "";
  };
  return CLI::Validator(check, description);
}

CLI::Validator device_name() {
  auto check = [](std::string& text) -> std::string {
    return is_device_name(text) ? "" : "expected cpu, cuda or cuda:N, got '" + text + "'";
  };
  return CLI::Validator(check, "cpu|cuda|cuda:N");
}

CLI::Validator precision_name() { return CLI::IsMember(precision_names()); }

int guarded_main(const std::function<int()>& body) {
  try {
    return body();
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const c10::Error& e) {
    std::cerr << "error: " << e.what_without_backtrace() << "\n";
    return kExitFailure;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitFailure;
  }
}

}  // namespace atento
