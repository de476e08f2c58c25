#pragma once
// A request's strings as the pieces the model translates (app/translate/text_segments.h: each
// sentence, split further where longer than the source length), submitted to the batcher as
// jobs of their own; and back: one result per string, its pieces' translations joined with
// its spacing. The same segmentation as atento-translate's, so both give the same text.

#include <cstdint>
#include <string>
#include <vector>

#include "app/serve/request_batcher.h"
#include "app/translate/text_segments.h"
#include "data/tokenizer.h"

namespace atento {

/// A request's jobs as pieces.
struct SegmentedJobs {
  std::vector<TranslationJob> pieces;  ///< what the batcher translates
  std::vector<SegmentedText> texts;    ///< per job of the request
  std::vector<size_t> first;           ///< per job: the index of its first piece
  int64_t cut = 0;                     ///< runs of text cut to the source length
};

/// Splits every job's text (valid UTF-8) into pieces, sentence by sentence when `segmenter` is
/// given; each piece a job with its job's beam and n_best.
SegmentedJobs segment_jobs(const std::vector<TranslationJob>& jobs, const data::Vocabularies& vocab,
                           Segmenter* segmenter);

/// One result per job: its k-th translation joins its pieces' k-th (a piece's last when it has
/// fewer) with its spacing; a job without pieces gets one empty translation.
std::vector<TranslationResult> join_pieces(const SegmentedJobs& segmented,
                                           const std::vector<TranslationResult>& pieces);

}  // namespace atento
