#pragma once
// Cross-attention weights as JSON records, the one format of `atento-translate --attention`
// (a file, for scripts/attention_map.sh) and of atento-serve's POST /attention (the page's
// heatmap): one record per translated piece of a line.

#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/model_dir/model_dir.h"
#include "app/translate/input_lines.h"
#include "app/translate/text_segments.h"
#include "model/search.h"

namespace atento {

/// The record of one piece and one hypothesis of it (searched with record_attention):
/// {"line", "piece", "source_tokens", "output_tokens", "layers"}, layers[layer][head][target
/// token][source token] the weights each output token gave each source token.
nlohmann::json attention_record(const TrainedModel& trained, int64_t line, int64_t piece,
                                const std::vector<int64_t>& source,
                                const model::Hypothesis& hypothesis);

/// The records of a window of encoded lines (the first being line `first_line`, from 1), one
/// per translated piece in input order, of each piece's best hypothesis. With `alternatives`
/// > 0, each record also holds "alternatives": ranks 2 … alternatives + 1 as {"output_tokens",
/// "layers"} (the piece's last hypothesis where it has fewer, as /translate's alternatives
/// join them).
std::vector<nlohmann::json> attention_records(
    const TrainedModel& trained, const EncodedInput& in, size_t first_line,
    const std::vector<std::vector<model::Hypothesis>>& hypotheses, size_t alternatives = 0);

/// Translates `lines` as atento-translate translates the lines of a file (sentence by sentence
/// when `segmenter` is given) with `search` (its beam above `alternatives`; record_attention and
/// n_best set here) and returns the JSON array `atento-translate --attention` writes for them, with
/// `alternatives` as attention_records() says.
nlohmann::json lines_attention(TrainedModel& trained, const std::vector<std::string>& lines,
                               model::SearchOptions search, size_t alternatives,
                               Segmenter* segmenter);

}  // namespace atento
