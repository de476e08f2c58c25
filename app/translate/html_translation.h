#pragma once
// An HTML document translated: its blocks of text (data/html_document.h) segmented and
// translated as any text is (app/translate/text_segments.h), its inline markup put back around
// the translated words by the model's own cross attention (app/translate/tag_placement.h), the
// rest of its markup kept. The one path of atento-translate --format html and of atento-serve's
// format "html", so that both give the same document.

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "app/model_dir/model_dir.h"
#include "app/translate/text_segments.h"
#include "model/search.h"

namespace atento {

/// Most bytes of one HTML document.
inline constexpr size_t kMaxHtmlBytes = size_t{64} << 20;

/// What translating one document gives.
struct HtmlTranslation {
  std::string html;
  int64_t pieces = 0;         ///< sources translated
  int64_t target_tokens = 0;  ///< target tokens of their translations
  int64_t cut = 0;            ///< runs of text cut to the source length
};

/// Translates the text of `html` with `search` (its beam; one hypothesis each, attention
/// recorded), sentence by sentence when `segmenter` is given. The blocks are translated a
/// bounded number of pieces at a time, so memory does not grow with the document. A block
/// without any source token is kept as it was. Throws data::HtmlError for HTML that cannot be
/// read (invalid UTF-8, NUL, nesting deeper than 256).
HtmlTranslation translate_html(TrainedModel& trained, std::string_view html,
                               model::SearchOptions search, Segmenter* segmenter);

/// A whole input as one document: the file at `path`, or standard input for "". Throws
/// std::runtime_error naming it when it holds more than kMaxHtmlBytes or cannot be read.
std::string read_html_input(const std::string& path);

}  // namespace atento
