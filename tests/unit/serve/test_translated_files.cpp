// Tests for app/serve/translated_files and the pure parts of app/serve/translate_file and
// app/serve/frontend_settings: stored translations bounded in time, count and bytes; file names
// made safe; .txt files cut into windows of whole lines; the web page's settings.
#include <gtest/gtest.h>

#include <chrono>
#include <nlohmann/json.hpp>
#include <string>

#include "app/serve/frontend_settings.h"
#include "app/serve/translate_file.h"
#include "app/serve/translated_files.h"
#include "tests/unit/serve/fake_clock.h"

namespace atento {
namespace {

using serve_test::FakeClock;

TEST(TranslatedFiles, PutThenGet) {
  TranslatedFiles files;
  const std::string id = files.put({"notes.txt", "hola\n"});
  EXPECT_EQ(id.size(), 32 + 1 + 9);
  EXPECT_EQ(id.substr(32), ".notes.txt");
  auto got = files.get(id);
  ASSERT_TRUE(got);
  EXPECT_EQ(got->name, "notes.txt");
  EXPECT_EQ(got->content, "hola\n");
  EXPECT_FALSE(files.get(std::string(32, '0') + ".notes.txt"));
  EXPECT_FALSE(files.get("notes.txt"));
  EXPECT_FALSE(files.get("../../etc/passwd"));
  EXPECT_NE(files.put({"notes.txt", "x"}), id) << "every upload gets its own name";
}

TEST(TranslatedFiles, ExpireAfterTheirTime) {
  FakeClock t;
  TranslatedFiles files({256, 1 << 20, std::chrono::seconds(1800)}, t.clock());
  const std::string id = files.put({"a.txt", "a"});
  t.now += std::chrono::seconds(1799);
  EXPECT_TRUE(files.get(id));
  t.now += std::chrono::seconds(2);
  EXPECT_FALSE(files.get(id));
  EXPECT_EQ(files.size(), 0u);
  EXPECT_EQ(files.bytes(), 0u);
}

TEST(TranslatedFiles, BoundedInCountAndBytes) {
  FakeClock t;
  TranslatedFiles files({3, 10, std::chrono::seconds(1800)}, t.clock());
  const std::string first = files.put({"1.txt", "aa"});
  files.put({"2.txt", "bb"});
  files.put({"3.txt", "cc"});
  const std::string fourth = files.put({"4.txt", "dd"});
  EXPECT_EQ(files.size(), 3u);
  EXPECT_FALSE(files.get(first)) << "the oldest goes first";
  EXPECT_TRUE(files.get(fourth));
  files.put({"big.txt", "123456789"});  // 9 bytes: only it fits in 10
  EXPECT_EQ(files.size(), 1u);
  EXPECT_LE(files.bytes(), 10u);
  EXPECT_FALSE(files.get(fourth));
}

TEST(SafeFileName, KeepsOnlySafeCharacters) {
  EXPECT_EQ(safe_file_name("notes.txt"), "notes.txt");
  EXPECT_EQ(safe_file_name("../../etc/passwd"), "passwd");
  EXPECT_EQ(safe_file_name("C:\\Users\\me\\my notes.txt"), "my_notes.txt");
  EXPECT_EQ(safe_file_name(".hidden.txt"), "hidden.txt");
  EXPECT_EQ(safe_file_name("año.txt"), "a__o.txt");
  EXPECT_EQ(safe_file_name(""), "file");
  EXPECT_EQ(safe_file_name("..."), "file");
  const std::string long_name = safe_file_name(std::string(500, 'x') + ".txt");
  EXPECT_EQ(long_name.size(), 100u);
  EXPECT_EQ(long_name.substr(96), ".txt");
}

TEST(TextWindows, WholeLinesOfAtMostMaxChars) {
  const auto w = text_windows("aaa\nbbb\nccc\n", 8);
  ASSERT_EQ(w.size(), 2u);
  EXPECT_EQ(w[0], "aaa\nbbb\n");
  EXPECT_EQ(w[1], "ccc\n");
  EXPECT_EQ(text_windows("a\n" + std::string(20, 'x') + "\nb", 5),
            (std::vector<std::string>{"a\n", std::string(20, 'x') + "\n", "b"}))
      << "a longer line is a window of its own";
  EXPECT_EQ(text_windows("", 5), std::vector<std::string>{""});
  EXPECT_EQ(text_windows("ñññ\nñ", 5), std::vector<std::string>{"ñññ\nñ"})
      << "characters (a line end is one), not bytes";
  std::string joined;
  for (const auto& window : text_windows("one\r\ntwo\n\nthree", 6)) joined += window;
  EXPECT_EQ(joined, "one\r\ntwo\n\nthree") << "the windows are the text";
}

TEST(TranslateFile, FormatsGrowWithAnHtmlTranslator) {
  FileTranslators plain;
  EXPECT_EQ(supported_file_formats(plain), std::vector<std::string>{".txt"});
  FileTranslators html;
  html.html = [](const std::string& d, const std::string&, const std::string&) { return d; };
  EXPECT_EQ(supported_file_formats(html), (std::vector<std::string>{".txt", ".html", ".htm"}));
  EXPECT_EQ(translated_text(R"({"translatedText":"Hola\nmundo"})"), "Hola\nmundo");
}

TEST(FrontendSettings, LibreTranslatesFields) {
  FrontendSettings s;
  s.char_limit = 2000;
  s.api_keys = true;
  s.key_required = true;
  s.files = {".txt"};
  s.languages = {"es", "en"};
  auto j = nlohmann::json::parse(frontend_settings_response(s));
  EXPECT_EQ(j["charLimit"], 2000);
  EXPECT_EQ(j["frontendTimeout"], 500);
  EXPECT_EQ(j["apiKeys"], true);
  EXPECT_EQ(j["keyRequired"], true);
  EXPECT_EQ(j["suggestions"], false);
  EXPECT_EQ(j["filesTranslation"], true);
  EXPECT_EQ(j["supportedFilesFormat"], nlohmann::json::array({".txt"}));
  EXPECT_EQ(j["language"]["source"]["code"], "es");
  EXPECT_EQ(j["language"]["source"]["name"], "Spanish");
  EXPECT_EQ(j["language"]["target"]["code"], "en");
  EXPECT_EQ(j["language"]["target"]["name"], "English");
  s.files.clear();
  EXPECT_EQ(nlohmann::json::parse(frontend_settings_response(s))["filesTranslation"], false);
}

}  // namespace
}  // namespace atento
