#pragma once
// What the thin mains share: option parsing conventions and the mapping of errors to exit
// codes (app/common/runtime.h). The only code of the project that includes CLI11.

#include <CLI/CLI.hpp>
#include <climits>
#include <cstdint>
#include <functional>
#include <string>

#include "app/common/runtime.h"

namespace atento {

/// Parses the command line. Returns -1 when the program should go on, otherwise the exit code
/// (0 after --help; 2 after a usage error, reported as "error: …").
int parse_command_line(CLI::App& app, int argc, char** argv);

/// An option check accepting integers in [min, max], with a plain message ("must be at least
/// 1, got 0"); `max` defaults to no upper bound.
CLI::Validator integer_range(int64_t min, int64_t max = INT64_MAX);

/// An option check accepting a device name: cpu, cuda or cuda:N.
CLI::Validator device_name();

/// An option check accepting a precision name: fp32, bf16, int8 or auto (precision_names()).
CLI::Validator precision_name();

/// Runs `body` and maps exceptions to exit codes: ConfigError → 2, anything else → 1, each
/// reported as one "error: …" line on stderr. LibTorch errors are reported by their message
/// alone, without the C++ source locations and backtrace they carry.
int guarded_main(const std::function<int()>& body);

}  // namespace atento
