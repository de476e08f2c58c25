#include "app/cli.h"

#include <ATen/Parallel.h>
#include <c10/util/Exception.h>

#include <cstdlib>
#include <iostream>
#include <string>
#include <thread>

#include "app/config.h"

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

int64_t resolve_threads(int64_t requested) {
  if (requested > 0) return requested;
  const char* env = std::getenv("OMP_NUM_THREADS");
  const int64_t n = env ? std::atoll(env) : 0;
  return n > 0 ? n : std::max<int64_t>(1, std::thread::hardware_concurrency());
}

int64_t set_threads(int64_t requested) {
  at::set_num_threads(static_cast<int>(resolve_threads(requested)));
  return at::get_num_threads();
}

}  // namespace atento
