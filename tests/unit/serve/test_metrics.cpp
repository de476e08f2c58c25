// Tests for app/serve/metrics: the Prometheus text exposition of atento-serve's counters.
#include <gtest/gtest.h>

#include <map>
#include <regex>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "app/serve/metrics.h"

namespace atento {
namespace {

RequestRecord record(const std::string& path, int status, double ms, size_t chars = 0,
                     size_t sentences = 0) {
  RequestRecord r;
  r.path = path;
  r.status = status;
  r.milliseconds = ms;
  r.characters = chars;
  r.sentences = sentences;
  return r;
}

/// Sample lines ("name{labels}" → value) of an exposition; fails on a line that is neither a
/// comment nor a sample.
std::map<std::string, double> samples(const std::string& text) {
  static const std::regex sample(
      R"(([a-zA-Z_:][a-zA-Z0-9_:]*(\{[a-zA-Z_][a-zA-Z0-9_]*="[^"]*"(,[a-zA-Z_][a-zA-Z0-9_]*="[^"]*")*\})?) ([-+0-9.eE]+|\+Inf))");
  std::map<std::string, double> out;
  std::istringstream lines(text);
  std::string line;
  while (std::getline(lines, line)) {
    if (line.rfind("# HELP ", 0) == 0 || line.rfind("# TYPE ", 0) == 0) continue;
    std::smatch m;
    EXPECT_TRUE(std::regex_match(line, m, sample)) << "not a sample: " << line;
    if (!m.empty()) out[m[1]] = std::stod(m[4]);
  }
  return out;
}

TEST(Metrics, CountsRequestsByPathAndStatus) {
  Metrics m;
  m.observe(record("/translate", 200, 12, 40, 3));
  m.observe(record("/translate", 200, 8, 2, 1));
  m.observe(record("/translate", 429, 0.1));
  m.observe(record("/download_file/abc.txt", 200, 1));
  m.observe(record("/nowhere", 404, 0.2));
  m.observe(record("/health", 599, 0.2));
  auto s = samples(m.format(7));
  EXPECT_EQ(s["atento_requests_total{path=\"/translate\",status=\"200\"}"], 2);
  EXPECT_EQ(s["atento_requests_total{path=\"/translate\",status=\"429\"}"], 1);
  EXPECT_EQ(s["atento_requests_total{path=\"/download_file\",status=\"200\"}"], 1);
  EXPECT_EQ(s["atento_requests_total{path=\"other\",status=\"404\"}"], 1);
  EXPECT_EQ(s["atento_requests_total{path=\"/health\",status=\"other\"}"], 1);
  EXPECT_EQ(s.count("atento_requests_total{path=\"/languages\",status=\"200\"}"), 0u)
      << "no line for what never happened";
  EXPECT_EQ(s["atento_errors_total"], 3);
  EXPECT_EQ(s["atento_characters_translated_total"], 42);
  EXPECT_EQ(s["atento_sentences_translated_total"], 4);
  EXPECT_EQ(s["atento_queue_depth"], 7);
}

TEST(Metrics, HistogramsAreCumulative) {
  Metrics m;
  for (size_t n : {1, 1, 3, 32, 1000}) m.observe_batch(n);
  m.observe(record("/translate", 200, 7));    // 0.007 s
  m.observe(record("/translate", 200, 200));  // 0.2 s
  auto s = samples(m.format(0));
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"1\"}"], 2);
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"2\"}"], 2);
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"4\"}"], 3);
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"32\"}"], 4);
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"512\"}"], 4);
  EXPECT_EQ(s["atento_batch_size_bucket{le=\"+Inf\"}"], 5);
  EXPECT_EQ(s["atento_batch_size_count"], 5);
  EXPECT_EQ(s["atento_batch_size_sum"], 1037);
  EXPECT_EQ(s["atento_request_duration_seconds_bucket{le=\"0.005\"}"], 0);
  EXPECT_EQ(s["atento_request_duration_seconds_bucket{le=\"0.01\"}"], 1);
  EXPECT_EQ(s["atento_request_duration_seconds_bucket{le=\"0.25\"}"], 2);
  EXPECT_EQ(s["atento_request_duration_seconds_count"], 2);
  EXPECT_NEAR(s["atento_request_duration_seconds_sum"], 0.207, 1e-9);
}

TEST(Metrics, EveryFamilyHasHelpAndType) {
  const std::string text = Metrics().format(0);
  for (const char* family :
       {"atento_requests_total counter", "atento_errors_total counter",
        "atento_sentences_translated_total counter", "atento_characters_translated_total counter",
        "atento_queue_depth gauge", "atento_batch_size histogram",
        "atento_request_duration_seconds histogram"}) {
    EXPECT_NE(text.find(std::string("# TYPE ") + family + "\n"), std::string::npos) << family;
  }
  EXPECT_EQ(text.back(), '\n');
}

TEST(Metrics, ObservingFromManyThreadsLosesNothing) {
  Metrics m;
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&m] {
      for (int i = 0; i < 5000; ++i) {
        m.observe(record("/translate", 200, 1, 2, 1));
        m.observe_batch(4);
      }
    });
  }
  for (auto& t : threads) t.join();
  auto s = samples(m.format(0));
  EXPECT_EQ(s["atento_requests_total{path=\"/translate\",status=\"200\"}"], 20000);
  EXPECT_EQ(s["atento_characters_translated_total"], 40000);
  EXPECT_EQ(s["atento_batch_size_count"], 20000);
}

}  // namespace
}  // namespace atento
