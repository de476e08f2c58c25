#include "app/serve/metrics.h"

#include <httplib.h>

#include <cstdio>
#include <cstdlib>

namespace atento {

namespace {

constexpr auto kRelaxed = std::memory_order_relaxed;

/// The shortest decimal that reads back as `value` ("0.005", not 0.005000000000000000104).
std::string number(double value) {
  char text[32];
  for (int digits = 1; digits <= 17; ++digits) {
    std::snprintf(text, sizeof text, "%.*g", digits, value);
    if (std::strtod(text, nullptr) == value) break;
  }
  return text;
}

std::string header(const std::string& name, const std::string& type, const std::string& help) {
  return "# HELP " + name + " " + help + "\n# TYPE " + name + " " + type + "\n";
}

}  // namespace

template <size_t N>
void Histogram<N>::observe(double value) {
  size_t i = 0;
  while (i < N && value > bounds[i]) ++i;
  counts[i].fetch_add(1, kRelaxed);
  sum_micros.fetch_add(static_cast<uint64_t>(value * 1e6 + 0.5), kRelaxed);
}

template <size_t N>
std::string Histogram<N>::format(const std::string& name, const std::string& help) const {
  std::string out = header(name, "histogram", help);
  uint64_t cumulative = 0;
  for (size_t i = 0; i <= N; ++i) {
    cumulative += counts[i].load(kRelaxed);
    const std::string le = i < N ? number(bounds[i]) : "+Inf";
    out += name + "_bucket{le=\"" + le + "\"} " + std::to_string(cumulative) + "\n";
  }
  out += name + "_sum " + number(static_cast<double>(sum_micros.load(kRelaxed)) / 1e6) + "\n";
  out += name + "_count " + std::to_string(cumulative) + "\n";
  return out;
}

Metrics::Metrics() {
  batch_sizes_.bounds = {1, 2, 4, 8, 16, 32, 64, 128, 256, 512};
  durations_.bounds = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30};
}

size_t Metrics::path_index(const std::string& path) {
  for (size_t i = 0; i + 1 < kPaths.size(); ++i) {
    const std::string known = kPaths[i];
    if (path == known || (known == "/download_file" && path.rfind(known + "/", 0) == 0)) return i;
  }
  return kPaths.size() - 1;
}

size_t Metrics::status_index(int status) {
  for (size_t i = 0; i < kStatuses.size(); ++i) {
    if (kStatuses[i] == status) return i;
  }
  return kStatuses.size();
}

void Metrics::observe(const RequestRecord& record) {
  requests_[path_index(record.path)][status_index(record.status)].fetch_add(1, kRelaxed);
  if (record.status >= 400) errors_.fetch_add(1, kRelaxed);
  sentences_.fetch_add(record.sentences, kRelaxed);
  characters_.fetch_add(record.characters, kRelaxed);
  durations_.observe(record.milliseconds / 1000.0);
}

void Metrics::observe_batch(size_t sentences) {
  batch_sizes_.observe(static_cast<double>(sentences));
}

std::string Metrics::format(size_t queue_depth) const {
  std::string out = header("atento_requests_total", "counter", "HTTP requests answered.");
  for (size_t p = 0; p < kPaths.size(); ++p) {
    for (size_t s = 0; s <= kStatuses.size(); ++s) {
      const uint64_t n = requests_[p][s].load(kRelaxed);
      if (n == 0) continue;
      const std::string status = s < kStatuses.size() ? std::to_string(kStatuses[s]) : "other";
      out += std::string("atento_requests_total{path=\"") + kPaths[p] + "\",status=\"" + status +
             "\"} " + std::to_string(n) + "\n";
    }
  }
  out += header("atento_errors_total", "counter", "HTTP requests answered with status >= 400.");
  out += "atento_errors_total " + std::to_string(errors_.load(kRelaxed)) + "\n";
  out += header("atento_sentences_translated_total", "counter",
                "Sentences (pieces of text) translated.");
  out += "atento_sentences_translated_total " + std::to_string(sentences_.load(kRelaxed)) + "\n";
  out += header("atento_characters_translated_total", "counter", "Characters translated.");
  out += "atento_characters_translated_total " + std::to_string(characters_.load(kRelaxed)) + "\n";
  out += header("atento_queue_depth", "gauge", "Sentences waiting for a decoding worker.");
  out += "atento_queue_depth " + std::to_string(queue_depth) + "\n";
  out += batch_sizes_.format("atento_batch_size",
                             "Sentences per decoded batch (continuous batching: per step).");
  out += durations_.format("atento_request_duration_seconds",
                           "Time from routing a request to its answer written.");
  return out;
}

void register_metrics(httplib::Server& server, const Metrics& metrics,
                      std::function<size_t()> queue_depth) {
  server.Get("/metrics", [&metrics, queue_depth = std::move(queue_depth)](const httplib::Request&,
                                                                          httplib::Response& res) {
    res.set_content(metrics.format(queue_depth ? queue_depth() : 0),
                    "text/plain; version=0.0.4; charset=utf-8");
  });
}

template struct Histogram<10>;
template struct Histogram<12>;

}  // namespace atento
