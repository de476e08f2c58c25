// Tests for app/libretranslate_api: parsing and validating POST /translate bodies (JSON and
// forms), the jobs they become, and the JSON answers.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/serve/libretranslate_api.h"

namespace atento {
namespace {

using nlohmann::json;

constexpr const char* kJsonType = "application/json";
constexpr const char* kFormType = "application/x-www-form-urlencoded";

ApiLimits limits() {
  ApiLimits l;
  l.max_chars = 50;
  l.max_strings = 3;
  l.max_beam = 4;
  l.default_beam = 1;
  return l;
}

/// The status of the ApiError that parsing `body` throws; 0 when it parses.
int status_of(const std::string& body, const std::string& type = kJsonType) {
  try {
    parse_translate_request(body, type, limits());
    return 0;
  } catch (const ApiError& e) {
    EXPECT_FALSE(std::string(e.what()).empty());
    return e.status;
  }
}

TEST(ServeApiTest, ParsesAJsonStringRequest) {
  auto r = parse_translate_request(
      R"({"q":"Good morning.","source":"en","target":"es","format":"text","api_key":"x"})",
      "application/json; charset=utf-8", limits());
  EXPECT_EQ(r.q, std::vector<std::string>{"Good morning."});
  EXPECT_FALSE(r.q_is_array);
  EXPECT_EQ(r.source, "en");
  EXPECT_EQ(r.target, "es");
  EXPECT_EQ(r.beam, 1);
  EXPECT_EQ(r.alternatives, 0);
}

TEST(ServeApiTest, ParsesAJsonArrayWithoutContentType) {
  auto r =
      parse_translate_request(R"({"q":["a","","b"],"source":"auto","target":"es"})", "", limits());
  EXPECT_EQ(r.q, (std::vector<std::string>{"a", "", "b"}));
  EXPECT_TRUE(r.q_is_array);
  EXPECT_EQ(r.source, "auto");
}

TEST(ServeApiTest, ParsesAForm) {
  auto r = parse_translate_request("q=Where+is%20the%20station%3F&source=en&target=es&beam=3",
                                   kFormType, limits());
  EXPECT_EQ(r.q, std::vector<std::string>{"Where is the station?"});
  EXPECT_FALSE(r.q_is_array);
  EXPECT_EQ(r.beam, 3);
  auto two = parse_translate_request("q=a&q=b&source=en&target=es", kFormType, limits());
  EXPECT_EQ(two.q, (std::vector<std::string>{"a", "b"}));
  EXPECT_TRUE(two.q_is_array);
}

TEST(ServeApiTest, FormDecodingHandlesEscapesAndEmptyParts) {
  auto fields = parse_form("a=%C3%B1+x&&b=&c");
  ASSERT_EQ(fields.size(), 3u);
  EXPECT_EQ(fields[0], (std::pair<std::string, std::string>{"a", "ñ x"}));
  EXPECT_EQ(fields[1], (std::pair<std::string, std::string>{"b", ""}));
  EXPECT_EQ(fields[2], (std::pair<std::string, std::string>{"c", ""}));
  EXPECT_THROW(parse_form("a=%G1"), ApiError);
  EXPECT_THROW(parse_form("a=%4"), ApiError);
}

TEST(ServeApiTest, AlternativesWidenTheBeam) {
  auto r = parse_translate_request(R"({"q":"x","source":"en","target":"es","alternatives":2})",
                                   kJsonType, limits());
  EXPECT_EQ(r.alternatives, 2);
  EXPECT_EQ(r.beam, 3);
  EXPECT_EQ(status_of(R"({"q":"x","source":"en","target":"es","alternatives":2,"beam":2})"), 400);
}

TEST(ServeApiTest, RefusesMalformedBodies) {
  EXPECT_EQ(status_of("{not json"), 400);
  EXPECT_EQ(status_of(""), 400);
  EXPECT_EQ(status_of(R"(["q"])"), 400);
  EXPECT_EQ(status_of("\"q\""), 400);
  EXPECT_EQ(status_of("q=a&source=en&target=es", "text/plain"), 415);
  EXPECT_EQ(status_of("q=%ZZ&source=en&target=es", kFormType), 400);
  // A number too large for a double is nlohmann's out_of_range, not a parse_error: still 400.
  EXPECT_EQ(status_of(R"({"q": "a", "source": "en", "target": "es", "alternatives": 1e400})"), 400);
}

TEST(ServeApiTest, RefusesWrongTypesAndMissingFields) {
  EXPECT_EQ(status_of(R"({"source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":null,"source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":5,"source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":["a",1],"source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":{"a":1},"source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":1,"target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","beam":"two"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","beam":1.5})"), 400);
  EXPECT_EQ(status_of("q=a&source=en&target=es&beam=-1", kFormType), 400);
}

TEST(ServeApiTest, RefusesEmptyOversizedAndTooManyStrings) {
  EXPECT_EQ(status_of(R"({"q":"","source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":[],"source":"en","target":"es"})"), 400);
  std::string fifty(50, 'a');
  EXPECT_EQ(status_of(R"({"q":")" + fifty + R"(","source":"en","target":"es"})"), 0);
  EXPECT_EQ(status_of(R"({"q":")" + fifty + R"(b","source":"en","target":"es"})"), 400);
  // The limit counts characters, not bytes: 50 × "ñ" (100 bytes) fits.
  std::string enes;
  for (int i = 0; i < 50; ++i) enes += "ñ";
  EXPECT_EQ(status_of(R"({"q":")" + enes + R"(","source":"en","target":"es"})"), 0);
  // Over all strings together.
  EXPECT_EQ(status_of(R"({"q":[")" + std::string(30, 'a') + R"(",")" + std::string(30, 'a') +
                      R"("],"source":"en","target":"es"})"),
            400);
  EXPECT_EQ(status_of(R"({"q":["a","b","c"],"source":"en","target":"es"})"), 0);
  EXPECT_EQ(status_of(R"({"q":["a","b","c","d"],"source":"en","target":"es"})"), 400);
}

TEST(ServeApiTest, RefusesInvalidUtf8AndNul) {
  EXPECT_EQ(status_of("{\"q\":\"\xff\xfe\",\"source\":\"en\",\"target\":\"es\"}"), 400);
  EXPECT_EQ(status_of(R"({"q":"\ud800","source":"en","target":"es"})"), 400);
  EXPECT_EQ(status_of("q=%FF%FE&source=en&target=es", kFormType), 400);
  EXPECT_EQ(status_of(R"({"q":"a\u0000b","source":"en","target":"es"})"), 400);
}

TEST(ServeApiTest, RefusesUnknownLanguagePairsAndFormats) {
  EXPECT_EQ(status_of(R"({"q":"a","source":"fr","target":"es"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"es","target":"en"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"de"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","format":"pdf"})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","beam":5})"), 400);
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","beam":0})"), 400);
}

TEST(ServeApiTest, HtmlIsOneDocumentPerString) {
  auto r = parse_translate_request(
      R"({"q":["<p>a</p>\n<p>b</p>","<b>c</b>"],"source":"en","target":"es","format":"html"})",
      kJsonType, limits());
  EXPECT_TRUE(r.html);
  EXPECT_FALSE(parse_translate_request(R"({"q":"a","source":"en","target":"es"})", kJsonType,
                                       limits())
                   .html);
  // One result per document, whatever its lines.
  auto body = json::parse(translate_response(r, {{"<p>x</p>\n<p>y</p>"}, {"<b>z</b>"}}));
  EXPECT_EQ(body["translatedText"], json::array({"<p>x</p>\n<p>y</p>", "<b>z</b>"}));
  EXPECT_EQ(status_of(R"({"q":"a","source":"en","target":"es","format":"html","alternatives":1})"),
            400);
}

TEST(ServeApiTest, OneJobPerLineWithTheRequestsSearch) {
  auto r = parse_translate_request(
      R"({"q":["one\r\ntwo","three"],"source":"en","target":"es","alternatives":1})", kJsonType,
      limits());
  auto jobs = translation_jobs(r);
  ASSERT_EQ(jobs.size(), 3u);
  EXPECT_EQ(jobs[0].text, "one");
  EXPECT_EQ(jobs[1].text, "two");
  EXPECT_EQ(jobs[2].text, "three");
  for (const auto& job : jobs) {
    EXPECT_EQ(job.beam, 2);
    EXPECT_EQ(job.n_best, 2);
  }
}

TEST(ServeApiTest, AnswersAStringForAStringAndJoinsLines) {
  auto r = parse_translate_request(R"({"q":"one\ntwo","source":"en","target":"es"})", kJsonType,
                                   limits());
  auto body = json::parse(translate_response(r, {{"uno"}, {"dos"}}));
  EXPECT_EQ(body, json::parse(R"({"translatedText":"uno\ndos"})"));
}

TEST(ServeApiTest, AnswersArraysWithAlternativesAndDetectedLanguage) {
  auto r = parse_translate_request(R"({"q":["a","b"],"source":"auto","target":"es",
                                       "alternatives":1})",
                                   kJsonType, limits());
  auto body = json::parse(translate_response(r, {{"A1", "A2"}, {"B1"}}));
  EXPECT_EQ(body["translatedText"], json::parse(R"(["A1","B1"])"));
  // A sentence with fewer hypotheses than asked repeats its last one.
  EXPECT_EQ(body["alternatives"], json::parse(R"([["A2"],["B1"]])"));
  ASSERT_TRUE(body["detectedLanguage"].is_array());
  EXPECT_EQ(body["detectedLanguage"][1]["language"], "en");
}

/// limits() with room for sentences long enough to identify.
ApiLimits roomy_limits() {
  ApiLimits l = limits();
  l.max_chars = 1000;
  return l;
}

TEST(ServeApiTest, AutoDetectsEachLongStringAndShortOnesTogether) {
  auto r = parse_translate_request(
      R"({"q":["Yes.","The weather was lovely yesterday, so we walked along the river until it got dark."],
          "source":"auto","target":"es"})",
      kJsonType, roomy_limits());
  ASSERT_EQ(r.detected.size(), 2u);
  for (const auto& guess : r.detected) {
    EXPECT_EQ(guess.language, "en");
    EXPECT_GT(guess.confidence, 50.0);  // "Yes." alone says nothing; with the other it does
  }
  auto body = json::parse(translate_response(r, {{"Sí."}, {"Hacía buen tiempo."}}));
  EXPECT_EQ(body["detectedLanguage"][0]["language"], "en");
  EXPECT_EQ(body["detectedLanguage"][1]["confidence"], r.detected[1].confidence);
}

TEST(ServeApiTest, AutoRefusesTextInAnotherLanguageSayingWhich) {
  try {
    parse_translate_request(
        R"({"q":"Mañana por la mañana iremos al mercado a comprar fruta y verduras frescas.",
            "source":"auto","target":"es"})",
        kJsonType, roomy_limits());
    FAIL() << "Spanish text translated as English";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400);
    const std::string message = e.what();
    EXPECT_NE(message.find("es is not supported"), std::string::npos) << message;
    EXPECT_NE(message.find("detected as Spanish"), std::string::npos) << message;
    EXPECT_NE(message.find("translates en to es"), std::string::npos) << message;
  }
}

TEST(ServeApiTest, AValueWithANulIsQuotedWholeInTheError) {
  try {
    parse_translate_request(R"({"q":"Hi","source":"en","target":"x\u0000yz"})", kJsonType,
                            limits());
    FAIL() << "an unknown target accepted";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400);
    EXPECT_NE(std::string(e.what()).find("x\\u0000yz is not supported"), std::string::npos)
        << e.what();
  }
}

TEST(ServeApiTest, AutoTakesTheSourceLanguageWhenNothingIsIdentified) {
  auto r = parse_translate_request(R"({"q":"42","source":"auto","target":"es"})", kJsonType,
                                   limits());
  ASSERT_EQ(r.detected.size(), 1u);
  EXPECT_EQ(r.detected[0].language, "en");
  EXPECT_EQ(r.detected[0].confidence, 0.0);
}

TEST(ServeApiTest, DetectTakesOneStringOfTheUsualSize) {
  EXPECT_EQ(parse_detect_request(R"({"q":"Hello there"})", kJsonType, limits()), "Hello there");
  EXPECT_EQ(parse_detect_request("q=Hola%20amigo&api_key=k", kFormType, limits()), "Hola amigo");
  for (const char* body : {R"({})", R"({"q":""})", R"({"q":["a"]})", R"({"q":7})", "[1]"}) {
    try {
      parse_detect_request(body, kJsonType, limits());
      ADD_FAILURE() << "accepted " << body;
    } catch (const ApiError& e) {
      EXPECT_EQ(e.status, 400) << body;
    }
  }
  const std::string huge = R"({"q":")" + std::string(limits().max_chars + 1, 'a') + R"("})";
  EXPECT_THROW(parse_detect_request(huge, kJsonType, limits()), ApiError);
  EXPECT_THROW(parse_detect_request("q=a", "text/plain", limits()), ApiError);
}

TEST(ServeApiTest, DetectAnswersCandidatesOrLibreTranslatesDefault) {
  LanguageIdentification found;
  found.candidates = {{"es", 95.0}, {"gl", 4.0}};
  EXPECT_EQ(json::parse(detect_response(found, LanguagePair{})),
            json::parse(R"([{"confidence":95.0,"language":"es"},
                            {"confidence":4.0,"language":"gl"}])"));
  EXPECT_EQ(json::parse(detect_response(LanguageIdentification{}, LanguagePair{"fr", "en"})),
            json::parse(R"([{"confidence":0.0,"language":"fr"}])"));
}

TEST(ServeApiTest, LanguagesListEnglishToSpanish) {
  auto body = json::parse(languages_response(LanguagePair{}));
  ASSERT_TRUE(body.is_array());
  ASSERT_EQ(body.size(), 2u);
  EXPECT_EQ(body[0]["code"], "en");
  EXPECT_EQ(body[0]["name"], "English");
  EXPECT_EQ(body[0]["targets"], json::parse(R"(["es"])"));
  EXPECT_EQ(body[1]["code"], "es");
}

TEST(ServeApiTest, LanguagesComeFromTheModel) {
  ApiLimits limits;
  limits.languages = {"es", "en"};
  auto body = json::parse(languages_response(limits.languages));
  EXPECT_EQ(body[0]["code"], "es");
  EXPECT_EQ(body[0]["name"], "Spanish");
  EXPECT_EQ(body[0]["targets"], json::parse(R"(["en"])"));
  auto request = parse_translate_request(R"({"q":"Hola.","source":"auto","target":"en"})",
                                         "application/json", limits);
  ASSERT_EQ(request.detected.size(), 1u);
  EXPECT_EQ(request.detected[0].language, "es");
  try {
    parse_translate_request(R"({"q":"Hello.","source":"en","target":"es"})", "application/json",
                            limits);
    FAIL() << "en->es accepted by an es->en model";
  } catch (const ApiError& e) {
    EXPECT_EQ(e.status, 400);
    EXPECT_NE(std::string(e.what()).find("only es or auto"), std::string::npos) << e.what();
  }
}

TEST(ServeApiTest, ErrorBodiesAreJsonEvenForInvalidUtf8) {
  EXPECT_EQ(json::parse(error_response("bad"))["error"], "bad");
  EXPECT_TRUE(json::parse(error_response("bad \xff"))["error"].is_string());
}

}  // namespace
}  // namespace atento
