// One trainer per model directory: the lock is exclusive, says who holds it, and goes with its
// holder.

#include <gtest/gtest.h>
#include <unistd.h>

#include <optional>
#include <stdexcept>
#include <string>

#include "app/common/directory_lock.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

using data::test_util::TempDir;

TEST(DirectoryLock, IsExclusiveAndNamesTheHolder) {
  TempDir dir;
  EXPECT_FALSE(directory_in_use(dir.str()));
  std::optional<DirectoryLock> first;
  first.emplace(dir.str());
  EXPECT_TRUE(directory_in_use(dir.str()));
  try {
    DirectoryLock second(dir.str());
    FAIL() << "a second lock must be refused";
  } catch (const std::runtime_error& e) {
    const std::string message = e.what();
    EXPECT_NE(message.find(dir.str() + " is in use by another atento-train"), std::string::npos)
        << message;
    EXPECT_NE(message.find("pid " + std::to_string(::getpid())), std::string::npos) << message;
  }
  first.reset();
  EXPECT_FALSE(directory_in_use(dir.str()));
  EXPECT_NO_THROW(DirectoryLock again(dir.str()));
}

TEST(DirectoryLock, AnUnwritableDirectoryIsAnErrorNamingIt) {
  TempDir dir;
  const std::string file = dir.write("plain", "x");
  try {
    DirectoryLock lock(file);
    FAIL() << "expected an error";
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find(file), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace atento
