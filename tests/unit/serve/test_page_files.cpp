// Tests for app/serve/page_files and embedded_files: every file of app/serve/page/ is compiled
// in byte for byte, served under its URL path ("/" for index.html) with its Content-Type; and
// for parse_attention_request (POST /attention: /translate's fields, q one string).
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <set>
#include <string>

#include "app/serve/attention_endpoint.h"
#include "app/serve/page_files.h"

namespace atento {
namespace {

namespace fs = std::filesystem;

std::string read_bytes(const fs::path& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(PageFilesTest, EveryFileOfThePageFolderIsEmbeddedAsItIs) {
  const fs::path folder = fs::path(ATENTO_SOURCE_DIR) / "app/serve/page";
  std::set<std::string> on_disk, served;
  for (const auto& entry : fs::directory_iterator(folder)) {
    const std::string name = entry.path().filename().string();
    on_disk.insert(name == "index.html" ? "/" : "/" + name);
  }
  for (const PageFile& file : page_files()) {
    served.insert(file.path);
    const std::string name = file.path == "/" ? "index.html" : file.path.substr(1);
    EXPECT_EQ(std::string(file.body), read_bytes(folder / name)) << name;
    EXPECT_EQ(file.content_type, page_content_type(name));
  }
  EXPECT_EQ(served, on_disk);
  EXPECT_TRUE(served.count("/page.css") && served.count("/page.js"));
}

TEST(PageFilesTest, IndexIsServedAtTheRootFirst) {
  ASSERT_FALSE(page_files().empty());
  const PageFile& index = page_files().front();
  EXPECT_EQ(index.path, "/");
  EXPECT_EQ(index.content_type, "text/html; charset=utf-8");
  EXPECT_NE(index.body.find("<textarea"), std::string_view::npos);
}

TEST(PageFilesTest, ContentTypesByExtension) {
  EXPECT_EQ(page_content_type("a.html"), "text/html; charset=utf-8");
  EXPECT_EQ(page_content_type("page.css"), "text/css; charset=utf-8");
  EXPECT_EQ(page_content_type("page.js"), "text/javascript; charset=utf-8");
  EXPECT_EQ(page_content_type("icon.svg"), "image/svg+xml");
  EXPECT_EQ(page_content_type("shot.png"), "image/png");
  EXPECT_EQ(page_content_type("notes"), "application/octet-stream");
  EXPECT_EQ(page_content_type("js"), "application/octet-stream");
}

/// The status of the ApiError that parsing `body` as POST /attention throws; 0 when it parses.
int attention_status(const std::string& body) {
  ApiLimits limits;
  limits.max_chars = 20;
  limits.max_beam = 4;
  try {
    parse_attention_request(body, "application/json", limits);
    return 0;
  } catch (const ApiError& e) {
    return e.status;
  }
}

TEST(AttentionRequestTest, TakesTheFieldsOfTranslateWithOneString) {
  ApiLimits limits;
  auto r = parse_attention_request(
      R"({"q": "Hello.", "source": "en", "target": "es", "alternatives": 2})", "", limits);
  EXPECT_EQ(r.q, std::vector<std::string>{"Hello."});
  EXPECT_EQ(r.alternatives, 2);
  EXPECT_GE(r.beam, 3);
  EXPECT_EQ(attention_status(R"({"q": "Hello.", "source": "en", "target": "es"})"), 0);
}

TEST(AttentionRequestTest, RefusesWhatTranslateRefusesAndArrays) {
  EXPECT_EQ(attention_status(R"({"q": ["Hello."], "source": "en", "target": "es"})"), 400);
  EXPECT_EQ(attention_status(R"({"q": "Hello.", "source": "en", "target": "fr"})"), 400);
  EXPECT_EQ(attention_status(R"({"q": "", "source": "en", "target": "es"})"), 400);
  EXPECT_EQ(attention_status(R"({"q": "a very long text, too long", "source": "en",
                                 "target": "es"})"),
            400);
  EXPECT_EQ(attention_status(R"({"q": "Hi", "source": "en", "target": "es", "beam": 9})"), 400);
  EXPECT_EQ(attention_status("{"), 400);
}

}  // namespace
}  // namespace atento
