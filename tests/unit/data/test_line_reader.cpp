// Lines read in windows: a regular file fills each window; an interactive input (a pipe) gives
// what has arrived, one line at least; terminators (LF, CRLF) stripped; a last line without a
// newline counts.

#include <gtest/gtest.h>
#include <unistd.h>

#include <stdexcept>
#include <string>
#include <vector>

#include "data/line_reader.h"
#include "tests/unit/test_data_util.h"

namespace atento::data {
namespace {

using Lines = std::vector<std::string>;

TEST(LineReader, AFileIsReadInFullWindows) {
  test_util::TempDir dir;
  const std::string path = dir.write("in.txt", "one\r\ntwo\n\nfour\nfive");
  LineReader reader(path);
  EXPECT_FALSE(reader.interactive());
  Lines lines;
  ASSERT_TRUE(reader.next_window(lines, 2));
  EXPECT_EQ(lines, (Lines{"one", "two"}));
  EXPECT_STREQ(reader.line_end(), "\r\n");  // as the first line ends
  ASSERT_TRUE(reader.next_window(lines, 2));
  EXPECT_EQ(lines, (Lines{"", "four"}));
  ASSERT_TRUE(reader.next_window(lines, 2));
  EXPECT_EQ(lines, (Lines{"five"}));
  EXPECT_FALSE(reader.next_window(lines, 2));
  EXPECT_TRUE(lines.empty());
}

TEST(LineReader, LinesEndAsTheFirstTerminatedLineDoes) {
  test_util::TempDir dir;
  Lines lines;
  LineReader unix_lines(dir.write("unix.txt", "one\ntwo\r\n"));
  ASSERT_TRUE(unix_lines.next_window(lines, 5));
  EXPECT_STREQ(unix_lines.line_end(), "\n");
  LineReader last_only(dir.write("last.txt", "one\r"));  // no terminator: nothing to follow
  ASSERT_TRUE(last_only.next_window(lines, 5));
  EXPECT_EQ(lines, (Lines{"one"}));
  EXPECT_STREQ(last_only.line_end(), "\n");
}

TEST(LineReader, LinesLongerThanTheReadBufferComeWhole) {
  test_util::TempDir dir;
  const std::string long_line(200000, 'x');
  LineReader reader(dir.write("in.txt", long_line + "\nshort\n"));
  Lines lines;
  ASSERT_TRUE(reader.next_window(lines, 10));
  EXPECT_EQ(lines, (Lines{long_line, "short"}));
}

TEST(LineReader, APipeGivesTheLinesThatHaveArrivedAndWaitsForTheNext) {
  int fds[2];
  ASSERT_EQ(::pipe(fds), 0);
  const std::string path = "/proc/self/fd/" + std::to_string(fds[0]);
  LineReader reader(path);
  EXPECT_TRUE(reader.interactive());
  ASSERT_EQ(::write(fds[1], "first\nsecond\npart", 17), 17);
  Lines lines;
  ASSERT_TRUE(reader.next_window(lines, 100));  // does not wait for 100 lines
  EXPECT_EQ(lines, (Lines{"first", "second"}));
  ASSERT_EQ(::write(fds[1], "ial\n", 4), 4);
  ASSERT_TRUE(reader.next_window(lines, 100));
  EXPECT_EQ(lines, (Lines{"partial"}));
  ASSERT_EQ(::write(fds[1], "no newline", 10), 10);
  ::close(fds[1]);
  ASSERT_TRUE(reader.next_window(lines, 100));
  EXPECT_EQ(lines, (Lines{"no newline"}));
  EXPECT_FALSE(reader.next_window(lines, 100));
  ::close(fds[0]);
}

TEST(LineReader, AMissingFileIsAnErrorNamingIt) {
  try {
    LineReader reader("/nonexistent/in.txt");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/in.txt: cannot open input"),
              std::string::npos)
        << e.what();
  }
}

}  // namespace
}  // namespace atento::data
