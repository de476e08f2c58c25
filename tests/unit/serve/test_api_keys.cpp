// Tests for app/serve/api_keys: the --api-keys file and the check of a request's key.
#include <gtest/gtest.h>

#include <string>

#include "app/common/config.h"
#include "app/serve/api_keys.h"

namespace atento {
namespace {

/// The ConfigError message of parsing `text`; empty when it parses.
std::string error_of(const std::string& text) {
  try {
    ApiKeys::parse(text, "keys.txt");
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

TEST(ApiKeys, ParsesKeysCommentsAndBlankLines) {
  auto keys = ApiKeys::parse(
      "# operators' keys\n"
      "\n"
      "alpha-123\n"
      "  beta_456  \r\n"
      "gamma#789 # a key with # inside, then a comment\n"
      "\t# indented comment\n",
      "keys.txt");
  EXPECT_TRUE(keys.enabled());
  EXPECT_EQ(keys.size(), 3u);
  EXPECT_EQ(keys.check("alpha-123"), KeyCheck::kValid);
  EXPECT_EQ(keys.check("beta_456"), KeyCheck::kValid);
  EXPECT_EQ(keys.check("gamma#789"), KeyCheck::kValid);
  EXPECT_EQ(keys.check("gamma"), KeyCheck::kInvalid);
  EXPECT_EQ(keys.check("alpha-123 "), KeyCheck::kInvalid);
  EXPECT_EQ(keys.check(""), KeyCheck::kMissing);
}

TEST(ApiKeys, BadLinesNameFileAndLine) {
  EXPECT_EQ(error_of("good\nbad key\n").rfind("keys.txt:2: invalid API key", 0), 0u)
      << error_of("good\nbad key\n");
  EXPECT_NE(error_of("ok\n\n\xc3\xa9t\xc3\xa9\n").find("keys.txt:3:"), std::string::npos);
  EXPECT_NE(error_of(std::string(300, 'k')).find("keys.txt:1:"), std::string::npos);
  EXPECT_NE(error_of("a\x01"
                     "b")
                .find("keys.txt:1:"),
            std::string::npos);
}

TEST(ApiKeys, AFileWithoutKeysIsAnError) {
  EXPECT_NE(error_of("").find("no API key"), std::string::npos);
  EXPECT_NE(error_of("# only a comment\n\n").find("keys.txt"), std::string::npos);
}

TEST(ApiKeys, NoKeysLetEveryoneIn) {
  ApiKeys none;
  EXPECT_FALSE(none.enabled());
  EXPECT_EQ(none.check(""), KeyCheck::kValid);
  EXPECT_EQ(none.check("anything"), KeyCheck::kValid);
}

TEST(ApiKeys, AMissingFileIsAConfigError) {
  EXPECT_THROW(ApiKeys::load("/nonexistent/keys.txt"), ConfigError);
}

}  // namespace
}  // namespace atento
