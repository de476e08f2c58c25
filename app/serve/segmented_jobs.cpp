#include "app/serve/segmented_jobs.h"

#include <algorithm>
#include <stdexcept>

namespace atento {

SegmentedJobs segment_jobs(const std::vector<TranslationJob>& jobs, const data::Vocabularies& vocab,
                           Segmenter* segmenter) {
  SegmentedJobs out;
  for (const TranslationJob& job : jobs) {
    out.first.push_back(out.pieces.size());
    out.texts.push_back(segment_text(vocab, job.text, segmenter));
    const SegmentedText& text = out.texts.back();
    for (const std::string& piece : text.texts) {
      TranslationJob part = job;
      part.text = piece;
      out.pieces.push_back(std::move(part));
    }
    out.cut += text.cut;
  }
  return out;
}

std::vector<TranslationResult> join_pieces(const SegmentedJobs& segmented,
                                           const std::vector<TranslationResult>& pieces) {
  if (pieces.size() != segmented.pieces.size()) {
    throw std::logic_error("join_pieces: one result per piece expected");
  }
  std::vector<TranslationResult> results;
  for (size_t j = 0; j < segmented.texts.size(); ++j) {
    const SegmentedText& text = segmented.texts[j];
    size_t ranks = 1;
    for (size_t k = 0; k < text.sources.size(); ++k) {
      ranks = std::max(ranks, pieces[segmented.first[j] + k].size());
    }
    TranslationResult result;
    for (size_t r = 0; r < ranks; ++r) {
      std::vector<std::string> parts;
      for (size_t k = 0; k < text.sources.size(); ++k) {
        const TranslationResult& found = pieces[segmented.first[j] + k];
        parts.push_back(found.empty() ? "" : found[std::min(r, found.size() - 1)]);
      }
      result.push_back(join_translations(text, parts));
    }
    results.push_back(std::move(result));
  }
  return results;
}

}  // namespace atento
