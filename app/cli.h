#pragma once
// What the thin mains share: option parsing conventions, exit codes, threads.
// Exit codes: 0 success, 2 usage/config error, 1 any other error; messages on stderr start with
// "error:".

#include <CLI/CLI.hpp>
#include <climits>
#include <cstdint>
#include <functional>
#include <string>

namespace atento {

constexpr int kExitOk = 0;
constexpr int kExitFailure = 1;
constexpr int kExitUsage = 2;

/// Parses the command line. Returns -1 when the program should go on, otherwise the exit code
/// (0 after --help; 2 after a usage error, reported as "error: …").
int parse_command_line(CLI::App& app, int argc, char** argv);

/// An option check accepting integers in [min, max], with a plain message ("must be at least
/// 1, got 0"); `max` defaults to no upper bound.
CLI::Validator integer_range(int64_t min, int64_t max = INT64_MAX);

/// An option check accepting a device name: cpu, cuda or cuda:N.
CLI::Validator device_name();

/// Runs `body` and maps exceptions to exit codes: ConfigError → 2, anything else → 1, each
/// reported as one "error: …" line on stderr. LibTorch errors are reported by their message
/// alone, without the C++ source locations and backtrace they carry.
int guarded_main(const std::function<int()>& body);

/// The thread count a setting asks for: itself when positive; 0 = $OMP_NUM_THREADS when set,
/// else every core.
int64_t resolve_threads(int64_t requested);

/// Sets LibTorch's intra-op threads to resolve_threads(requested) (LibTorch otherwise starts
/// with OpenMP's default, which is 1 thread on some machines). With OpenMP the count belongs
/// to the calling thread. Returns the number in use.
int64_t set_threads(int64_t requested);

}  // namespace atento
