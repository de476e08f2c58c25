#pragma once
// POST /attention: the cross-attention weights of one string's translation, the JSON array
// `atento-translate --attention` writes for it (app/translate/attention_records.h), for the
// page's heatmap. Decoded outside the request batcher (the batcher does not record attention),
// one request at a time, within the limits of POST /translate.

#include <cstddef>
#include <cstdint>
#include <mutex>
#include <optional>
#include <string>

#include "app/model_dir/model_dir.h"
#include "app/serve/libretranslate_api.h"
#include "app/translate/text_segments.h"

namespace atento {

/// Most sentence translations one POST /attention may ask for: sentences × (alternatives + 1).
/// Its answer grows as layers × heads × output × source tokens for each (over a megabyte for a
/// 64-token sentence of an 8-head model), so it is bounded tighter than POST /translate.
inline constexpr size_t kMaxAttentionTranslations = 32;

/// Parses a POST /attention body: the fields and checks of POST /translate
/// (parse_translate_request), with q a single string. Throws ApiError (400, 415).
TranslateRequest parse_attention_request(const std::string& body, const std::string& content_type,
                                         const ApiLimits& limits);

/// An HTTP answer: status and JSON body.
struct JsonAnswer {
  int status = 200;
  std::string body;
};

/// Answers POST /attention over a loaded model, one request at a time.
class AttentionEndpoint {
 public:
  /// `threads`: intra-op threads of the decoding (as each batcher worker has).
  AttentionEndpoint(TrainedModel& trained, const ApiLimits& limits, int64_t threads);

  /// The records of the request's string (each line, each sentence a record; with
  /// `alternatives`, those of the beam's other translations too), or a LibreTranslate error:
  /// 400/415 as POST /translate, 400 also over kMaxAttentionTranslations, 500 when decoding
  /// fails.
  JsonAnswer answer(const std::string& body, const std::string& content_type);

 private:
  /// Throws ApiError 400 when `request` asks for more than kMaxAttentionTranslations (under
  /// decoding_: it uses the segmenter).
  void check_size(const TranslateRequest& request);

  TrainedModel& trained_;
  const ApiLimits& limits_;
  int64_t threads_;
  std::mutex decoding_;                             ///< one request decodes at a time
  std::optional<Segmenter> segmenter_;              ///< used under decoding_
};

}  // namespace atento
