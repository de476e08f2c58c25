// The `latest` pointer read from an untrusted model directory: only step-<digits> names a
// checkpoint, a symbolic link or an oversized pointer file is refused, errors name the file.
#include <gtest/gtest.h>

#include <filesystem>
#include <string>
#include <vector>

#include "app/model_dir/checkpoint_pointer.h"
#include "tests/unit/test_app_pointer_error.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

namespace fs = std::filesystem;
using checkpoint_test::pointer_error;
using data::test_util::TempDir;

TEST(CheckpointPointer, OnlyStepNamesAreCheckpoints) {
  EXPECT_TRUE(is_checkpoint_name("step-0"));
  EXPECT_TRUE(is_checkpoint_name("step-9223372036854775807"));
  for (const std::string& bad :
       std::vector<std::string>{"", "step-", "step-1/..", "../step-1", "step-1 ", "step-x",
                                "step-12345678901234567890", std::string("step-1\0", 7)}) {
    EXPECT_FALSE(is_checkpoint_name(bad)) << bad;
  }
}

TEST(CheckpointPointer, FindsTheNamedCheckpoint) {
  TempDir dir;
  EXPECT_FALSE(latest_checkpoint(dir.str()));
  fs::create_directories(dir.file("checkpoints/step-7"));
  dir.write("checkpoints/latest", "step-7\n");
  EXPECT_EQ(*latest_checkpoint(dir.str()), dir.file("checkpoints/step-7"));
}

TEST(CheckpointPointer, ALinkOutOfTheDirectoryIsRefused) {
  TempDir dir, outside;
  fs::create_directories(dir.file("checkpoints"));
  fs::create_directory_symlink(outside.str(), dir.file("checkpoints/step-3"));
  dir.write("checkpoints/latest", "step-3\n");
  EXPECT_NE(pointer_error(dir).find("missing checkpoint 'step-3'"), std::string::npos)
      << pointer_error(dir);
}

TEST(CheckpointPointer, AnOversizedOrBinaryPointerIsAClearError) {
  TempDir dir;
  fs::create_directories(dir.file("checkpoints/step-1"));
  dir.write("checkpoints/latest", "step-1" + std::string(100, ' '));
  EXPECT_NE(pointer_error(dir).find("more than the 64 allowed"), std::string::npos)
      << pointer_error(dir);
  dir.write("checkpoints/latest", std::string("step-1\0\x1b[2J", 11));
  const std::string message = pointer_error(dir);
  EXPECT_NE(message.find(dir.file("checkpoints/latest")), std::string::npos) << message;
  EXPECT_EQ(message.find('\x1b'), std::string::npos) << "control bytes are not echoed";
}

}  // namespace
}  // namespace atento
