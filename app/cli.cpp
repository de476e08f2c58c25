#include "app/cli.h"

#include <ATen/Parallel.h>

#include <cstdlib>
#include <iostream>
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

int guarded_main(const std::function<int()>& body) {
  try {
    return body();
  } catch (const ConfigError& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitUsage;
  } catch (const std::exception& e) {
    std::cerr << "error: " << e.what() << "\n";
    return kExitFailure;
  }
}

int64_t set_threads(int64_t requested) {
  int64_t n = requested;
  if (n <= 0) {
    // 0 = every core, unless the environment asks for fewer (OMP_NUM_THREADS, as OpenMP).
    const char* env = std::getenv("OMP_NUM_THREADS");
    n = env ? std::atoll(env) : 0;
    if (n <= 0) n = std::max(1u, std::thread::hardware_concurrency());
  }
  at::set_num_threads(static_cast<int>(n));
  return at::get_num_threads();
}

}  // namespace atento
