// Tests for app/serve/access_control and app/serve/request_fields: the order and bodies of the
// refusals (429 before 403, LibreTranslate's messages), and a request's fields read from JSON,
// form and multipart bodies alike.
#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <string>

#include "app/serve/access_control.h"
#include "app/serve/libretranslate_api.h"
#include "app/serve/request_fields.h"

namespace atento {
namespace {

TEST(AccessControl, OpenWithoutKeysOrLimit) {
  ApiKeys none;
  RateLimiter unlimited(0);
  AccessControl access(none, unlimited);
  for (int i = 0; i < 100; ++i) EXPECT_FALSE(access.check("1.2.3.4", ""));
}

TEST(AccessControl, KeysAsLibreTranslate) {
  const ApiKeys keys = ApiKeys::parse("k1\n", "keys");
  RateLimiter unlimited(0);
  AccessControl access(keys, unlimited);
  EXPECT_FALSE(access.check("c", "k1"));
  auto bogus = access.check("c", "k2");
  ASSERT_TRUE(bogus);
  EXPECT_EQ(bogus->status, 403);
  EXPECT_EQ(bogus->message, "Invalid API key");
  auto missing = access.check("c", "");
  ASSERT_TRUE(missing);
  EXPECT_EQ(missing->status, 403);
  EXPECT_EQ(missing->message, "Please contact the server operator to get an API key");
}

TEST(AccessControl, TheRateLimitComesFirstAndCountsRefusals) {
  const ApiKeys keys = ApiKeys::parse("k1\n", "keys");
  std::chrono::steady_clock::time_point now{};
  RateLimiter limiter(2, 100, [&now] { return now; });
  AccessControl access(keys, limiter);
  EXPECT_EQ(access.check("c", "bogus")->status, 403);  // counted although refused
  EXPECT_FALSE(access.check("c", "k1"));
  auto slow = access.check("c", "k1");
  ASSERT_TRUE(slow);
  EXPECT_EQ(slow->status, 429);
  EXPECT_EQ(slow->message, "Slowdown: 2 per 1 minute");
  EXPECT_EQ(slow->retry_after_s, 30);
  EXPECT_FALSE(access.check("other client", "k1"));
}

httplib::Request multipart(std::initializer_list<std::pair<std::string, std::string>> fields) {
  httplib::Request req;
  req.method = "POST";
  req.set_header("Content-Type", "multipart/form-data; boundary=x");
  for (const auto& [name, value] : fields) {
    req.files.emplace(name, httplib::MultipartFormData{name, value, "", ""});
  }
  return req;
}

TEST(RequestFields, MultipartBecomesTheFormItMeans) {
  auto req = multipart({{"q", "Hello & bye=1%"}, {"q", "ñ"}, {"source", "en"}, {"target", "es"}});
  req.files.emplace("file", httplib::MultipartFormData{"file", "data", "a.txt", "text/plain"});
  auto [body, type] = translate_body(req);
  EXPECT_EQ(type, "application/x-www-form-urlencoded");
  EXPECT_EQ(body, "q=Hello%20%26%20bye%3D1%25&q=%C3%B1&source=en&target=es");
  ApiLimits limits;
  auto request = parse_translate_request(body, type, limits);
  EXPECT_EQ(request.q, (std::vector<std::string>{"Hello & bye=1%", "ñ"}));
  EXPECT_TRUE(request.q_is_array);
}

TEST(RequestFields, OtherBodiesPassThrough) {
  httplib::Request req;
  req.method = "POST";
  req.set_header("Content-Type", "application/json");
  req.body = R"({"q":"x"})";
  EXPECT_EQ(translate_body(req), std::make_pair(req.body, std::string("application/json")));
}

TEST(RequestFields, ApiKeyFromAnyBody) {
  httplib::Request json;
  json.method = "POST";
  json.set_header("Content-Type", "application/json; charset=utf-8");
  json.body = R"({"q": "x", "api_key": "k"})";
  EXPECT_EQ(request_field(json, "api_key"), "k");
  json.body = R"({"api_key": 7})";
  EXPECT_FALSE(request_field(json, "api_key"));
  json.body = "not json";
  EXPECT_FALSE(request_field(json, "api_key"));
  EXPECT_EQ(request_field(multipart({{"api_key", "m"}}), "api_key"), "m");
  httplib::Request form;
  form.method = "POST";
  form.set_header("Content-Type", "application/x-www-form-urlencoded");
  form.params.emplace("api_key", "f");  // httplib parses form bodies and query strings here
  EXPECT_EQ(request_field(form, "api_key"), "f");
  auto upload = multipart({});
  upload.files.emplace("api_key", httplib::MultipartFormData{"api_key", "k", "key.txt", ""});
  EXPECT_FALSE(request_field(upload, "api_key")) << "an uploaded file is not a field";
}

}  // namespace
}  // namespace atento
