// Tests for app/serve/cors: which origins get which Access-Control-* headers.
#include <gtest/gtest.h>

#include <map>
#include <string>

#include "app/common/config.h"
#include "app/serve/cors.h"

namespace atento {
namespace {

std::map<std::string, std::string> headers(const CorsPolicy& p, const std::string& origin,
                                           bool preflight) {
  std::map<std::string, std::string> out;
  for (auto& [name, value] : cors_headers(p, origin, preflight)) out[name] = value;
  return out;
}

TEST(Cors, OffByDefault) {
  CorsPolicy off;
  EXPECT_FALSE(allowed_origin(off, "https://example.org"));
  EXPECT_TRUE(headers(off, "https://example.org", true).empty());
}

TEST(Cors, AnyOrigin) {
  CorsPolicy any{{"*"}};
  EXPECT_EQ(allowed_origin(any, "https://example.org"), "*");
  EXPECT_EQ(allowed_origin(any, ""), "*");
  auto h = headers(any, "https://example.org", false);
  EXPECT_EQ(h["Access-Control-Allow-Origin"], "*");
  EXPECT_EQ(h.count("Vary"), 0u);
  EXPECT_EQ(h.count("Access-Control-Allow-Methods"), 0u) << "only preflights get methods";
}

TEST(Cors, ListedOriginsAreEchoed) {
  CorsPolicy listed{{"https://a.example", "http://localhost:8080"}};
  EXPECT_EQ(allowed_origin(listed, "http://localhost:8080"), "http://localhost:8080");
  EXPECT_FALSE(allowed_origin(listed, "http://localhost:8081"));
  EXPECT_FALSE(allowed_origin(listed, "https://a.example.evil"));
  EXPECT_FALSE(allowed_origin(listed, ""));
  auto h = headers(listed, "https://a.example", true);
  EXPECT_EQ(h["Access-Control-Allow-Origin"], "https://a.example");
  EXPECT_EQ(h["Vary"], "Origin");
  EXPECT_EQ(h["Access-Control-Allow-Methods"], "GET, POST");
  EXPECT_NE(h["Access-Control-Allow-Headers"].find("Content-Type"), std::string::npos);
  EXPECT_FALSE(h["Access-Control-Max-Age"].empty());
  EXPECT_TRUE(headers(listed, "https://b.example", true).empty());
}

TEST(Cors, OriginsAreChecked) {
  EXPECT_NO_THROW(check_cors_origins(
      {"*", "https://example.org", "http://127.0.0.1:5173", "http://[::1]:8080"}));
  EXPECT_THROW(check_cors_origins({"example.org"}), ConfigError);
  EXPECT_THROW(check_cors_origins({"https://example.org/"}), ConfigError);
  EXPECT_THROW(check_cors_origins({"https://example.org/page"}), ConfigError);
  EXPECT_THROW(check_cors_origins({""}), ConfigError);
}

}  // namespace
}  // namespace atento
