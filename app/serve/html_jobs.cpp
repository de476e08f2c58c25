#include "app/serve/html_jobs.h"

#include <mutex>
#include <optional>

#include "app/common/runtime.h"
#include "app/translate/html_translation.h"
#include "app/translate/text_segments.h"
#include "app/translate/translator.h"
#include "data/html_document.h"

namespace atento {

HtmlResult translate_html_document(TrainedModel& trained, const std::string& html, int64_t beam) {
  // One document at a time: it decodes beside the batcher's workers, on the model they share.
  static std::mutex one_at_a_time;
  const std::lock_guard<std::mutex> lock(one_at_a_time);
  // OpenMP's thread count belongs to each thread: set it on the connection thread that decodes.
  thread_local bool threads_set = false;
  if (!threads_set) threads_set = (set_threads(trained.config.translate.threads), true);
  thread_local std::optional<Segmenter> segmenter;
  auto search = search_options(trained);
  if (beam > 0) search.beam = beam;
  HtmlTranslation done;
  try {
    done = translate_html(trained, html, search, segmenter_for(segmenter, trained.config));
  } catch (const data::HtmlError& e) {
    throw ApiError(400, std::string("Invalid request: ") + e.what());
  }
  HtmlResult result{std::move(done.html), {}};
  const std::string cut = cut_warning(done.cut, trained.config.tokenizer.src_len);
  if (!cut.empty()) result.warnings.push_back(cut);
  return result;
}

std::string translate_html_request(TrainedModel& trained, const TranslateRequest& request) {
  std::vector<TranslationResult> results;
  std::vector<std::string> warnings;
  for (const std::string& html : request.q) {
    HtmlResult done = translate_html_document(trained, html, request.beam);
    results.push_back({std::move(done.html)});
    warnings.insert(warnings.end(), done.warnings.begin(), done.warnings.end());
  }
  return translate_response(request, results, warnings);
}

}  // namespace atento
