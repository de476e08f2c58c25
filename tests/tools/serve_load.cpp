// Load client of scripts/bench_serve.sh: C concurrent clients send N single-sentence
// POST /translate requests in all (one keep-alive connection and one request at a time each,
// cpp-httplib's client) to atento-serve on 127.0.0.1:PORT (loopback only), sentences taken in
// turn from a file.
// Usage: atento_serve_load PORT SENTENCES_FILE CLIENTS REQUESTS
// Prints one JSON line: clients, requests, errors, seconds, requests_per_s, p50_ms, p99_ms.
// It replaced a Node client that took ~20% of a 2-core machine's CPU under 64 clients, time
// the measured server then lacked; this one takes a few percent (docs/results.md).
#include <httplib.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <iostream>
#include <mutex>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <vector>

namespace {

using Clock = std::chrono::steady_clock;

std::vector<std::string> read_sentences(const std::string& path) {
  std::ifstream in(path);
  if (!in) {
    std::cerr << "error: cannot read " << path << "\n";
    std::exit(2);
  }
  std::vector<std::string> sentences;
  for (std::string line; std::getline(in, line);)
    if (!line.empty()) sentences.push_back(line);
  if (sentences.empty()) {
    std::cerr << "error: " << path << " holds no sentence\n";
    std::exit(2);
  }
  return sentences;
}

struct Shared {
  int port = 0;
  const std::vector<std::string>* sentences;
  size_t total = 0;
  std::atomic<size_t> next{0};
  std::atomic<size_t> errors{0};
  std::mutex mutex;
  std::vector<double> latencies_ms;
};

void report_error(Shared& shared, const std::string& what) {
  if (++shared.errors <= 3) {
    std::lock_guard<std::mutex> lock(shared.mutex);
    std::cerr << what << "\n";
  }
}

// One request; true when the answer is 200 with a string translatedText.
bool translate_one(httplib::Client& client, const std::string& sentence, Shared& shared) {
  const nlohmann::json body = {
      {"q", sentence}, {"source", "en"}, {"target", "es"}, {"format", "text"}};
  auto result = client.Post("/translate", body.dump(), "application/json");
  if (!result) {
    report_error(shared, "request failed: " + httplib::to_string(result.error()));
    return false;
  }
  const auto answer = nlohmann::json::parse(result->body, nullptr, false);
  const bool ok = result->status == 200 && answer.is_object() &&
                  answer.contains("translatedText") && answer["translatedText"].is_string();
  if (!ok) report_error(shared, std::to_string(result->status) + " " + result->body);
  return ok;
}

void run_client(Shared& shared) {
  httplib::Client client("127.0.0.1", shared.port);
  client.set_keep_alive(true);
  // httplib writes a request's headers and body apart: under Nagle's algorithm the body waited
  // for the server's delayed acknowledgement (~40 ms a request).
  client.set_tcp_nodelay(true);
  client.set_read_timeout(600, 0);
  std::vector<double> latencies;
  for (size_t i = shared.next++; i < shared.total; i = shared.next++) {
    const auto started = Clock::now();
    translate_one(client, (*shared.sentences)[i % shared.sentences->size()], shared);
    latencies.push_back(std::chrono::duration<double, std::milli>(Clock::now() - started).count());
  }
  std::lock_guard<std::mutex> lock(shared.mutex);
  shared.latencies_ms.insert(shared.latencies_ms.end(), latencies.begin(), latencies.end());
}

// The nearest-rank percentile of sorted values (p in (0, 1]).
double percentile(const std::vector<double>& sorted, double p) {
  if (sorted.empty()) return 0.0;
  const auto rank = static_cast<size_t>(std::ceil(p * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<size_t>(rank, 1)) - 1];
}

double rounded(double value, double scale) { return std::round(value * scale) / scale; }

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::cerr << "usage: atento_serve_load PORT SENTENCES_FILE CLIENTS REQUESTS\n";
    return 2;
  }
  const int port = std::atoi(argv[1]);
  const std::vector<std::string> sentences = read_sentences(argv[2]);
  const int clients = std::atoi(argv[3]);
  const long requests = std::atol(argv[4]);
  if (port < 1 || port > 65535 || clients < 1 || requests < 1) {
    std::cerr << "error: PORT, CLIENTS and REQUESTS must be positive integers (PORT ≤ 65535)\n";
    return 2;
  }
  Shared shared;
  shared.port = port;
  shared.sentences = &sentences;
  shared.total = static_cast<size_t>(requests);
  const auto started = Clock::now();
  std::vector<std::thread> threads;
  for (int c = 0; c < clients; ++c) threads.emplace_back(run_client, std::ref(shared));
  for (auto& thread : threads) thread.join();
  const double seconds = std::chrono::duration<double>(Clock::now() - started).count();
  std::sort(shared.latencies_ms.begin(), shared.latencies_ms.end());
  const nlohmann::json line = {
      {"clients", clients},
      {"requests", requests},
      {"errors", shared.errors.load()},
      {"seconds", rounded(seconds, 1000)},
      {"requests_per_s", rounded(static_cast<double>(requests) / seconds, 10)},
      {"p50_ms", rounded(percentile(shared.latencies_ms, 0.5), 10)},
      {"p99_ms", rounded(percentile(shared.latencies_ms, 0.99), 10)}};
  std::cout << line.dump() << std::endl;
  return 0;
}
