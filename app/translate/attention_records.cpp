#include "app/translate/attention_records.h"

#include <torch/torch.h>

#include <algorithm>
#include <sstream>

#include "app/translate/translator.h"

namespace atento {

namespace {

/// The hypothesis's output tokens and weights, [layer][head][target][source].
void add_tokens_and_layers(nlohmann::json& record, const TrainedModel& trained, size_t source_len,
                           const model::Hypothesis& hypothesis) {
  auto& out_tokens = record["output_tokens"] = nlohmann::json::array();
  for (auto id : hypothesis.tokens) out_tokens.push_back(trained.vocab->tgt().piece(id));
  auto& layers = record["layers"] = nlohmann::json::array();
  for (const auto& weights : hypothesis.attention) {  // [H,T,S]
    auto w = weights.to(torch::kCPU).to(torch::kFloat64).contiguous();
    auto heads = nlohmann::json::array();
    for (int64_t h = 0; h < w.size(0); ++h) {
      auto rows = nlohmann::json::array();
      for (int64_t t = 0; t < w.size(1); ++t) {
        auto row = w[h][t];
        const double* p = row.data_ptr<double>();
        rows.push_back(std::vector<double>(
            p, p + std::min<int64_t>(row.size(0), static_cast<int64_t>(source_len))));
      }
      heads.push_back(std::move(rows));
    }
    layers.push_back(std::move(heads));
  }
}

}  // namespace

nlohmann::json attention_record(const TrainedModel& trained, int64_t line, int64_t piece,
                                const std::vector<int64_t>& source,
                                const model::Hypothesis& hypothesis) {
  nlohmann::json record;
  record["line"] = line;
  record["piece"] = piece;
  auto& src_tokens = record["source_tokens"] = nlohmann::json::array();
  for (auto id : source) src_tokens.push_back(trained.vocab->src().piece(id));
  add_tokens_and_layers(record, trained, source.size(), hypothesis);
  return record;
}

std::vector<nlohmann::json> attention_records(
    const TrainedModel& trained, const EncodedInput& in, size_t first_line,
    const std::vector<std::vector<model::Hypothesis>>& hypotheses, size_t alternatives) {
  std::vector<nlohmann::json> records;
  for (size_t i = 0; i < in.lines.size(); ++i) {
    const SegmentedText& line = in.lines[i];
    for (size_t k = 0; k < line.sources.size(); ++k) {
      const auto& found = hypotheses[in.first[i] + k];
      if (found.empty()) continue;
      auto record = attention_record(trained, static_cast<int64_t>(first_line + i),
                                     static_cast<int64_t>(k + 1), line.sources[k], found[0]);
      if (alternatives > 0) {
        auto& others = record["alternatives"] = nlohmann::json::array();
        for (size_t r = 1; r <= alternatives; ++r) {
          nlohmann::json other;
          add_tokens_and_layers(other, trained, line.sources[k].size(),
                                found[std::min(r, found.size() - 1)]);
          others.push_back(std::move(other));
        }
      }
      records.push_back(std::move(record));
    }
  }
  return records;
}

nlohmann::json lines_attention(TrainedModel& trained, const std::vector<std::string>& lines,
                               model::SearchOptions search, size_t alternatives,
                               Segmenter* segmenter) {
  search.record_attention = true;
  search.n_best = static_cast<int64_t>(alternatives) + 1;  // at most the beam: the caller's check
  std::ostringstream warnings;                             // skipped lines simply have no record
  const EncodedInput in = encode_input(*trained.vocab, lines, "<text>", 1, segmenter, warnings);
  const auto hypotheses =
      translate_sources(trained, in.sources, search, trained.config.translate.batch_size);
  nlohmann::json records = nlohmann::json::array();
  for (auto& record : attention_records(trained, in, 1, hypotheses, alternatives)) {
    records.push_back(std::move(record));
  }
  return records;
}

}  // namespace atento
