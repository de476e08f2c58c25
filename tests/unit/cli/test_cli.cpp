// What the mains share: range checks with plain messages and exit code 2, and errors reported
// as messages without C++ source locations.

#include <c10/util/Exception.h>
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "app/cli/cli.h"
#include "app/common/config.h"

namespace atento {
namespace {

// Parses `args` with `app`; returns the exit code (-1: go on) and the captured stderr.
std::pair<int, std::string> parse(CLI::App& app, std::vector<std::string> args) {
  std::vector<char*> argv;
  args.insert(args.begin(), "atento-test");
  for (auto& a : args) argv.push_back(a.data());
  testing::internal::CaptureStderr();
  const int code = parse_command_line(app, static_cast<int>(argv.size()), argv.data());
  return {code, testing::internal::GetCapturedStderr()};
}

// Parses `args` for a program with one `--beam` option in [1, 16].
std::pair<int, std::string> parse_beam(std::vector<std::string> args, int64_t* beam) {
  CLI::App app{"test", "atento-test"};
  app.add_option("--beam", *beam)->check(integer_range(1, 16));
  return parse(app, std::move(args));
}

TEST(Cli, IntegerRangeAcceptsTheRangeAndExplainsRejections) {
  int64_t beam = 0;
  EXPECT_EQ(parse_beam({"--beam", "4"}, &beam).first, -1);
  EXPECT_EQ(beam, 4);
  EXPECT_EQ(parse_beam({"--beam", "16"}, &beam).first, -1);
  for (const auto& [value, expected] :
       std::vector<std::pair<std::string, std::string>>{{"0", "must be at least 1, got 0"},
                                                        {"-3", "must be at least 1, got -3"},
                                                        {"17", "must be at most 16, got 17"},
                                                        {"2x", "expected an integer, got '2x'"},
                                                        {"", "expected an integer"}}) {
    const auto [code, err] = parse_beam({"--beam", value}, &beam);
    EXPECT_EQ(code, kExitUsage) << value;
    EXPECT_NE(err.find(expected), std::string::npos) << err;
    EXPECT_EQ(err.find("179769"), std::string::npos) << "no 309-digit bound: " << err;
  }
}

TEST(Cli, PrecisionOptionAcceptsTheConfigurationsNames) {
  std::string precision;
  CLI::App app{"test", "atento-test"};
  app.add_option("--precision", precision)->check(precision_name());
  for (const std::string name : {"fp32", "bf16", "int8", "auto"}) {
    EXPECT_EQ(parse(app, {"--precision", name}).first, -1) << name;
    EXPECT_EQ(precision, name);
  }
  const auto [code, err] = parse(app, {"--precision", "fp16"});
  EXPECT_EQ(code, kExitUsage);
  EXPECT_NE(err.find("fp16"), std::string::npos) << err;
  EXPECT_EQ(precision_names(), (std::vector<std::string>{"fp32", "bf16", "int8", "auto"}));
}

TEST(Cli, GuardedMainMapsErrorsToExitCodesAndPlainMessages) {
  testing::internal::CaptureStderr();
  EXPECT_EQ(guarded_main([]() -> int { throw ConfigError("train.lr: must be positive"); }),
            kExitUsage);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "error: train.lr: must be positive\n");

  testing::internal::CaptureStderr();
  EXPECT_EQ(guarded_main([]() -> int {
              TORCH_CHECK(false, "position 70 is beyond the model's max_len 64");
              return 0;
            }),
            kExitFailure);
  const std::string err = testing::internal::GetCapturedStderr();
  EXPECT_NE(err.find("error: position 70 is beyond the model's max_len 64"), std::string::npos)
      << err;
  EXPECT_EQ(err.find("Exception raised from"), std::string::npos) << err;
  EXPECT_EQ(err.find(".cpp"), std::string::npos) << err;

  testing::internal::CaptureStderr();
  EXPECT_EQ(guarded_main([]() -> int { throw std::runtime_error("disk full"); }), kExitFailure);
  EXPECT_EQ(testing::internal::GetCapturedStderr(), "error: disk full\n");
}

}  // namespace
}  // namespace atento
