// Tests for app/serve/access_log: one line of seven fields per request.
#include <gtest/gtest.h>

#include <chrono>
#include <cstdio>
#include <fstream>
#include <sstream>
#include <string>

#include "app/common/config.h"
#include "app/serve/access_log.h"

namespace atento {
namespace {

RequestRecord sample() {
  RequestRecord r;
  // 2026-12-02T19:29:47.123Z
  r.time = std::chrono::system_clock::time_point(std::chrono::milliseconds(1796239787123LL));
  r.client = "127.0.0.1";
  r.method = "POST";
  r.path = "/translate";
  r.status = 200;
  r.milliseconds = 15.25;
  r.characters = 42;
  return r;
}

TEST(AccessLog, OneLineOfSevenFields) {
  EXPECT_EQ(access_line(sample()),
            "2026-12-02T19:29:47.123Z 127.0.0.1 POST /translate 200 15.2ms 42chars\n");
}

TEST(AccessLog, OddPathsCannotBreakTheLine) {
  RequestRecord r = sample();
  r.path = "/a b\n\"c%\xff";
  r.status = 404;
  const std::string line = access_line(r);
  EXPECT_NE(line.find(" /a%20b%0A\"c%25%FF 404 "), std::string::npos) << line;
  EXPECT_EQ(line.find('\n'), line.size() - 1);
  r.path = "";
  r.method = "";
  std::istringstream fields(access_line(r));
  int n = 0;
  for (std::string field; fields >> field;) ++n;
  EXPECT_EQ(n, 7);
}

TEST(AccessLog, AppendsToAFile) {
  const std::string path = testing::TempDir() + "atento_access_log_test.log";
  std::remove(path.c_str());
  {
    AccessLog log(path);
    log.write(sample());
  }
  {
    AccessLog log(path);  // appends, keeps what was there
    log.write(sample());
  }
  std::ifstream in(path);
  std::string line;
  int lines = 0;
  while (std::getline(in, line)) {
    ++lines;
    EXPECT_EQ(line, "2026-12-02T19:29:47.123Z 127.0.0.1 POST /translate 200 15.2ms 42chars");
  }
  EXPECT_EQ(lines, 2);
  std::remove(path.c_str());
}

TEST(AccessLog, AnUnwritablePathIsAConfigError) {
  EXPECT_THROW(AccessLog("/nonexistent/dir/access.log"), ConfigError);
}

}  // namespace
}  // namespace atento
