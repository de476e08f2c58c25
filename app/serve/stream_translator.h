#pragma once
// atento-serve's continuous batching over a loaded model: a StepDecoder
// (app/serve/request_batcher.h) that tokenizes jobs, decodes them with model::GreedyStream and
// detokenizes those that end.

#include <cstdint>
#include <memory>

#include "app/model_dir/model_dir.h"
#include "app/serve/request_batcher.h"

namespace atento {

/// A StepDecoder over `trained` (which must outlive it), decoding on `threads` intra-op
/// threads of the calling worker. A blank job ends at the next step with an empty
/// translation, as in atento-translate.
std::unique_ptr<StepDecoder> make_stream_translator(TrainedModel& trained, int64_t threads);

}  // namespace atento
