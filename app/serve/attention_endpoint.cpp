#include "app/serve/attention_endpoint.h"

#include <iostream>
#include <nlohmann/json.hpp>
#include <vector>

#include "app/common/runtime.h"
#include "app/serve/segmented_jobs.h"
#include "app/translate/attention_records.h"
#include "app/translate/translator.h"

namespace atento {

TranslateRequest parse_attention_request(const std::string& body, const std::string& content_type,
                                         const ApiLimits& limits) {
  TranslateRequest request = parse_translate_request(body, content_type, limits);
  if (request.q_is_array) {
    throw ApiError(400, "Invalid request: q must be one string for /attention");
  }
  return request;
}

AttentionEndpoint::AttentionEndpoint(TrainedModel& trained, const ApiLimits& limits,
                                     int64_t threads)
    : trained_(trained), limits_(limits), threads_(threads) {}

void AttentionEndpoint::check_size(const TranslateRequest& request) {
  const size_t sentences = segment_jobs(translation_jobs(request), *trained_.vocab,
                                        segmenter_for(segmenter_, trained_.config))
                               .pieces.size();
  const size_t translations = sentences * static_cast<size_t>(request.alternatives + 1);
  if (translations > kMaxAttentionTranslations) {
    throw ApiError(400, "Invalid request: " + std::to_string(sentences) + " sentence(s) with " +
                            std::to_string(request.alternatives) + " alternative(s) make " +
                            std::to_string(translations) + " translations, more than the " +
                            std::to_string(kMaxAttentionTranslations) +
                            " whose attention /attention returns at once");
  }
}

JsonAnswer AttentionEndpoint::answer(const std::string& body, const std::string& content_type) {
  try {
    const TranslateRequest request = parse_attention_request(body, content_type, limits_);
    std::vector<std::string> lines;
    for (auto& job : translation_jobs(request)) lines.push_back(std::move(job.text));
    auto search = search_options(trained_);
    search.beam = request.beam;
    std::lock_guard<std::mutex> lock(decoding_);
    // OpenMP's thread count belongs to each thread: set it on the connection thread decoding.
    thread_local int64_t threads_set = 0;
    if (threads_set != threads_) threads_set = (set_threads(threads_), threads_);
    check_size(request);
    const auto records =
        lines_attention(trained_, lines, search, static_cast<size_t>(request.alternatives),
                        segmenter_for(segmenter_, trained_.config));
    return {200, records.dump(-1, ' ', false, nlohmann::json::error_handler_t::replace)};
  } catch (const ApiError& e) {
    return {e.status, error_response(e.what())};
  } catch (const std::exception& e) {
    std::cerr << "atento-serve: warning: attention failed: " << e.what() << "\n";
    return {500, error_response(std::string("attention failed: ") + e.what())};
  }
}

}  // namespace atento
