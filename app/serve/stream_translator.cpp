#include "app/serve/stream_translator.h"

#include <string>
#include <utility>
#include <vector>

#include "app/common/precision.h"
#include "app/common/runtime.h"
#include "app/translate/translator.h"
#include "model/greedy_stream.h"

namespace atento {
namespace {

class StreamTranslator : public StepDecoder {
 public:
  StreamTranslator(TrainedModel& trained, int64_t threads)
      : trained_(trained), stream_(trained.model, search_options(trained)) {
    set_threads(threads);  // OpenMP's thread count belongs to the worker thread
  }

  void join(const std::vector<TranslationJob>& jobs, const std::vector<uint64_t>& tags) override {
    std::vector<std::vector<int64_t>> sources;
    std::vector<uint64_t> decoded;
    for (size_t i = 0; i < jobs.size(); ++i) {
      auto ids = jobs[i].text.find_first_not_of(" \t") == std::string::npos
                     ? std::vector<int64_t>{}
                     : trained_.vocab->encode_source(jobs[i].text);  // cut at src_len
      if (ids.empty()) {                                             // nothing to decode
        blank_.emplace_back(tags[i], TranslationResult{""});
      } else {
        sources.push_back(std::move(ids));
        decoded.push_back(tags[i]);
      }
    }
    DecodingPrecisionGuard precision(trained_.config.translate.precision, trained_.device);
    stream_.add(sources, decoded);
  }

  std::vector<std::pair<uint64_t, TranslationResult>> step() override {
    auto ended = std::move(blank_);
    blank_.clear();
    std::vector<std::pair<uint64_t, model::Hypothesis>> finished;
    {
      DecodingPrecisionGuard precision(trained_.config.translate.precision, trained_.device);
      finished = stream_.step();
    }
    for (auto& [tag, hypothesis] : finished) {
      ended.emplace_back(tag, TranslationResult{trained_.vocab->decode_target(hypothesis.tokens)});
    }
    return ended;
  }

  size_t active() const override { return stream_.active() + blank_.size(); }

 private:
  TrainedModel& trained_;
  model::GreedyStream stream_;
  std::vector<std::pair<uint64_t, TranslationResult>> blank_;  ///< end at the next step
};

}  // namespace

std::unique_ptr<StepDecoder> make_stream_translator(TrainedModel& trained, int64_t threads) {
  return std::make_unique<StreamTranslator>(trained, threads);
}

}  // namespace atento
