// The atomic, durable file writer: replaces files whole, and a failed write leaves the old
// file as it was.

#include <gtest/gtest.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <fstream>
#include <future>
#include <stdexcept>
#include <string>

#include "data/text_io.h"
#include "tests/unit/test_data_util.h"

namespace atento::data {
namespace {

namespace fs = std::filesystem;
using test_util::TempDir;

// Files left in `dir` besides `keep` (temporary files must not survive a write).
int other_files(const TempDir& dir, const std::string& keep) {
  int count = 0;
  for (const auto& entry : fs::directory_iterator(dir.str())) {
    if (entry.path().filename() != keep) ++count;
  }
  return count;
}

// Makes writes beyond `bytes` fail with EFBIG, as a full disk would, while in scope.
class FileSizeLimit {
 public:
  explicit FileSizeLimit(rlim_t bytes) {
    getrlimit(RLIMIT_FSIZE, &saved_);
    previous_handler_ = std::signal(SIGXFSZ, SIG_IGN);
    rlimit limit = saved_;
    limit.rlim_cur = bytes;
    setrlimit(RLIMIT_FSIZE, &limit);
  }
  ~FileSizeLimit() {
    setrlimit(RLIMIT_FSIZE, &saved_);
    std::signal(SIGXFSZ, previous_handler_);
  }

 private:
  rlimit saved_{};
  void (*previous_handler_)(int) = nullptr;
};

TEST(WriteFileAtomically, WritesAndReplacesWholeFilesLeavingNoTemporary) {
  TempDir dir;
  const std::string path = dir.file("state.json");
  write_file_atomically(path, "first\n");
  EXPECT_EQ(read_whole_file(path, "test file"), "first\n");
  write_file_atomically(path, std::string(100000, 'x'));
  EXPECT_EQ(read_whole_file(path, "test file"), std::string(100000, 'x'));
  EXPECT_EQ(other_files(dir, "state.json"), 0);
}

TEST(WriteFileAtomically, CreatesMissingParentDirectories) {
  TempDir dir;
  const std::string path = dir.file("a/b/c.txt");
  write_file_atomically(path, "deep");
  EXPECT_EQ(read_whole_file(path, "test file"), "deep");
}

TEST(WriteFileAtomically, AFailedWriteLeavesTheOldFileIntact) {
  TempDir dir;
  const std::string path = dir.file("model.pt");
  const std::string old_content(1000, 'o');
  write_file_atomically(path, old_content);
  std::string message;
  {
    FileSizeLimit limit(4096);
    try {
      write_file_atomically(path, std::string(1 << 20, 'n'));
    } catch (const std::runtime_error& e) {
      message = e.what();
    }
  }
  EXPECT_NE(message.find("cannot write " + path), std::string::npos) << message;
  EXPECT_EQ(read_whole_file(path, "test file"), old_content);
  EXPECT_EQ(other_files(dir, "model.pt"), 0) << "the temporary file must be removed";
}

TEST(WriteFileAtomically, AnUnwritablePlaceIsAnErrorNamingIt) {
  TempDir dir;
  const std::string blocker = dir.write("file", "x");
  try {
    write_file_atomically(blocker + "/inside.txt", "content");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(blocker + "/inside.txt"), std::string::npos) << e.what();
  }
}

TEST(WriteFileAtomically, AFifoIsWrittenInPlaceNotReplaced) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  auto reader = std::async(std::launch::async, [&] { return read_whole_file(fifo, "fifo"); });
  write_file_atomically(fifo, "through the pipe\n");
  EXPECT_EQ(reader.get(), "through the pipe\n");
  EXPECT_TRUE(fs::is_fifo(fifo)) << "the FIFO must still be a FIFO";
  EXPECT_EQ(other_files(dir, "pipe"), 0);
}

TEST(WriteFileAtomically, ASymlinkToAFileStaysALinkAndItsTargetIsReplaced) {
  TempDir dir;
  const std::string target = dir.write("target.txt", "old");
  const std::string link = dir.file("link.txt");
  fs::create_symlink(target, link);
  write_file_atomically(link, "new");
  EXPECT_TRUE(fs::is_symlink(link));
  EXPECT_EQ(read_whole_file(target, "test file"), "new");
}

TEST(WriteFileAtomically, ADirectoryIsAnErrorNamingIt) {
  TempDir dir;
  fs::create_directories(dir.file("sub"));
  try {
    write_file_atomically(dir.file("sub"), "content");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(dir.file("sub")), std::string::npos) << e.what();
  }
  EXPECT_TRUE(fs::is_directory(dir.file("sub")));
}

// Private character devices (never the machine's /dev/null): creating one needs root.
TEST(WriteFileAtomically, DevicesAreWrittenInPlaceAndAFullOneIsAnError) {
  if (::geteuid() != 0) GTEST_SKIP() << "creating device nodes needs root";
  TempDir dir;
  const std::string null_device = dir.file("null");
  const std::string full_device = dir.file("full");
  if (::mknod(null_device.c_str(), S_IFCHR | 0666, makedev(1, 3)) != 0 ||
      ::mknod(full_device.c_str(), S_IFCHR | 0666, makedev(1, 7)) != 0) {
    GTEST_SKIP() << "this file system refuses device nodes";
  }
  write_file_atomically(null_device, "discarded\n");
  EXPECT_TRUE(fs::is_character_file(null_device)) << "the device node must survive";
  try {
    write_file_atomically(full_device, "no room\n");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("cannot write " + full_device), std::string::npos)
        << e.what();
  }
  EXPECT_TRUE(fs::is_character_file(full_device));
  EXPECT_EQ(other_files(dir, "null"), 1) << "only the two devices: no temporary file";
}

TEST(OutputFile, PiecesBecomeVisibleOnlyAtCommitAndWhole) {
  TempDir dir;
  const std::string path = dir.write("out.txt", "old\n");
  {
    OutputFile out(path);
    out.write("one\n");
    out.write("two\n");
    EXPECT_EQ(read_whole_file(path, "test file"), "old\n") << "replaced before commit";
    out.commit();
  }
  EXPECT_EQ(read_whole_file(path, "test file"), "one\ntwo\n");
  EXPECT_EQ(other_files(dir, "out.txt"), 0);
}

TEST(OutputFile, WithoutCommitTheOldFileStaysAndNoTemporaryIsLeft) {
  TempDir dir;
  const std::string path = dir.write("out.txt", "old\n");
  try {
    OutputFile out(path);
    out.write("half");
    throw std::runtime_error("interrupted");
  } catch (const std::runtime_error&) {
  }
  EXPECT_EQ(read_whole_file(path, "test file"), "old\n");
  EXPECT_EQ(other_files(dir, "out.txt"), 0);
}

TEST(OutputFile, AFifoGetsEachPieceAsItIsWritten) {
  TempDir dir;
  const std::string fifo = dir.file("pipe");
  ASSERT_EQ(::mkfifo(fifo.c_str(), 0600), 0);
  std::promise<std::string> first_line;
  auto reader = std::async(std::launch::async, [&] {
    std::ifstream in(fifo);
    std::string line, rest;
    std::getline(in, line);
    first_line.set_value(line);  // read before the writer writes more or commits
    std::getline(in, rest, '\0');
    return rest;
  });
  OutputFile out(fifo);
  out.write("first line\n");
  EXPECT_EQ(first_line.get_future().get(), "first line");
  out.write("second line\n");
  out.commit();
  EXPECT_EQ(reader.get(), "second line\n");
  EXPECT_TRUE(fs::is_fifo(fifo));
}

TEST(ReadWholeFile, NamesWhatAndWhereOnFailure) {
  TempDir dir;
  try {
    read_whole_file(dir.file("missing"), "training state");
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find("cannot read training state " + dir.file("missing")), std::string::npos)
        << message;
  }
  EXPECT_THROW(read_whole_file(dir.str(), "training state"), std::runtime_error);
}

}  // namespace
}  // namespace atento::data
