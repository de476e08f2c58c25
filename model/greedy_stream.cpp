#include "model/greedy_stream.h"

#include <torch/torch.h>

#include <algorithm>

#include "model/block.h"
#include "model/eval_mode.h"
#include "model/greedy_choice.h"

namespace atento::model {
namespace {

// Appends `rows` zero rows to x [B,...] (undefined stays undefined).
torch::Tensor grow_rows(const torch::Tensor& x, int64_t rows) {
  if (!x.defined()) return x;
  auto sizes = x.sizes().vec();
  sizes[0] = rows;
  return torch::cat({x, torch::zeros(sizes, x.options())}, 0);
}

// Pads axis `dim` of x with zeros (false for masks) up to `width`.
torch::Tensor pad_axis(const torch::Tensor& x, int64_t dim, int64_t width) {
  if (x.size(dim) >= width) return x;
  auto sizes = x.sizes().vec();
  sizes[dim] = width - x.size(dim);
  return torch::cat({x, torch::zeros(sizes, x.options())}, dim);
}

}  // namespace

GreedyStream::GreedyStream(Seq2Seq model, const SearchOptions& options)
    : model_(std::move(model)), options_(options), device_(torch::kCPU) {
  const auto& arch = model_->options();
  auto is_token = [&](int64_t id) { return id >= 0 && id < arch.tgt_vocab && id != kPadId; };
  TORCH_CHECK(is_token(options_.bos_id) && is_token(options_.eos_id),
              "GreedyStream: bos_id and eos_id must be target token ids other than padding");
  TORCH_CHECK(!options_.record_attention && options_.force_len == 0,
              "GreedyStream: record_attention and force_len are not supported");
  device_ = model_->parameters().front().device();
  forbidden_ = ids_on(forbidden_tokens(options_), device_);
}

void GreedyStream::add(const std::vector<std::vector<int64_t>>& sources,
                       const std::vector<uint64_t>& tags) {
  TORCH_CHECK(sources.size() == tags.size(), "GreedyStream::add: ", sources.size(), " sources but ",
              tags.size(), " tags");
  if (sources.empty()) return;
  EvalModeGuard eval_mode(*model_);
  int64_t width = 0;
  for (const auto& source : sources) {
    TORCH_CHECK(!source.empty(), "GreedyStream::add: empty source");
    width = std::max(width, static_cast<int64_t>(source.size()));
  }
  const auto n = static_cast<int64_t>(sources.size());
  auto src = torch::full({n, width}, kPadId, torch::kLong);  // [n,S'], padded
  for (int64_t i = 0; i < n; ++i) {
    const auto& source = sources[static_cast<size_t>(i)];
    src[i].narrow(0, 0, static_cast<int64_t>(source.size())).copy_(torch::tensor(source));
  }
  auto joined = model_->start(model_->encode(src.to(device_)));
  std::vector<int64_t> slots;
  if (rows_.empty()) {
    caches_ = std::move(joined.layers);
    src_keep_ = joined.src_keep;
    rows_.resize(sources.size());
    for (int64_t i = 0; i < n; ++i) slots.push_back(i);
  } else {
    slots = take_slots(sources.size());
    place(std::move(joined), slots);
  }
  for (size_t i = 0; i < sources.size(); ++i) {
    Row& row = rows_[static_cast<size_t>(slots[i])];
    row = Row{};
    row.used = true;
    row.tag = tags[i];
    row.start = column_;
    row.limit = output_limit(model_->options(), static_cast<int64_t>(sources[i].size()), options_);
    row.last = options_.bos_id;
  }
  active_ += sources.size();
}

std::vector<int64_t> GreedyStream::take_slots(size_t count) {
  std::vector<int64_t> slots;
  for (size_t b = 0; b < rows_.size() && slots.size() < count; ++b) {
    if (!rows_[b].used) slots.push_back(static_cast<int64_t>(b));
  }
  const auto missing = static_cast<int64_t>(count - slots.size());
  if (missing > 0) {
    for (auto& cache : caches_) {  // [B,...] → [B+missing,...]
      cache.self_k = grow_rows(cache.self_k, missing);
      cache.self_v = grow_rows(cache.self_v, missing);
      cache.cross_k = grow_rows(cache.cross_k, missing);
      cache.cross_v = grow_rows(cache.cross_v, missing);
    }
    src_keep_ = grow_rows(src_keep_, missing);  // [B,S] → [B+missing,S]
    for (int64_t i = 0; i < missing; ++i) slots.push_back(static_cast<int64_t>(rows_.size()) + i);
    rows_.resize(rows_.size() + static_cast<size_t>(missing));
  }
  return slots;
}

void GreedyStream::widen_sources(int64_t width) {
  if (src_keep_.size(1) >= width) return;
  for (auto& cache : caches_) {  // [B,H,S,Dh] → [B,H,width,Dh]
    cache.cross_k = pad_axis(cache.cross_k, 2, width);
    cache.cross_v = pad_axis(cache.cross_v, 2, width);
  }
  src_keep_ = pad_axis(src_keep_, 1, width);  // [B,S] → [B,width], padding masked
}

void GreedyStream::place(DecoderState joined, const std::vector<int64_t>& slots) {
  const int64_t width = std::max(src_keep_.size(1), joined.src_keep.size(1));
  widen_sources(width);
  const auto index = ids_on(slots, device_);
  for (size_t i = 0; i < caches_.size(); ++i) {
    // [n,H,S',Dh] → [n,H,width,Dh], into rows `slots` of [B,H,width,Dh]
    caches_[i].cross_k.index_copy_(0, index, pad_axis(joined.layers[i].cross_k, 2, width));
    caches_[i].cross_v.index_copy_(0, index, pad_axis(joined.layers[i].cross_v, 2, width));
  }
  src_keep_.index_copy_(0, index, pad_axis(joined.src_keep, 1, width));  // [n,width] into [B,width]
}

void GreedyStream::reclaim_columns(int64_t first) {
  if (first == 0 || caches_.front().capacity() > column_) return;
  for (auto& cache : caches_) cache.keep_from(first);
  for (auto& row : rows_) row.start = std::max<int64_t>(0, row.start - first);
  column_ -= first;
}

int64_t GreedyStream::oldest_start() const {
  int64_t first = column_;
  for (const auto& row : rows_) first = std::min(first, row.start);
  return first;
}

void GreedyStream::prepare_step(torch::Tensor& tokens, torch::Tensor& positions,
                                torch::Tensor& self_keep) {
  for (auto& row : rows_) {
    if (!row.used) row.start = column_;  // a free slot attends only its own new column
  }
  reclaim_columns(oldest_start());
  const int64_t first = oldest_start();
  std::vector<int64_t> fed, at, starts;
  for (const auto& row : rows_) {
    fed.push_back(row.used ? row.last : options_.bos_id);
    at.push_back(column_ - row.start);
    starts.push_back(row.start);
  }
  for (auto& cache : caches_) cache.first = first;
  tokens = ids_on(fed, device_);
  positions = ids_on(at, device_);
  if (std::all_of(starts.begin(), starts.end(), [&](int64_t s) { return s == first; })) {
    self_keep = torch::Tensor();  // every row attends every column (one row, or none joined)
    return;
  }
  // Columns first..column_ (the new one included) against each row's start: [1,K] ≥ [B,1]
  // → [B,K] → [B,1,1,K]
  const auto rows = static_cast<int64_t>(rows_.size());
  auto columns = torch::arange(first, column_ + 1, torch::kLong).unsqueeze(0);
  self_keep = columns.ge(torch::tensor(starts, torch::kLong).unsqueeze(1))
                  .view({rows, 1, 1, column_ + 1 - first})
                  .to(device_);
}

std::vector<std::pair<uint64_t, Hypothesis>> GreedyStream::step() {
  std::vector<std::pair<uint64_t, Hypothesis>> ended;
  if (active_ == 0) return ended;
  EvalModeGuard eval_mode(*model_);
  torch::Tensor tokens, positions, self_keep;
  prepare_step(tokens, positions, self_keep);
  auto hidden = model_->decoder->step_at(caches_, tokens, positions, self_keep,
                                         key_keep(src_keep_));  // [B,D]
  ++column_;
  auto choice = greedy_choice(model_->project(hidden), forbidden_);  // [B,V] → [B] each
  const auto best = choice.log_prob.to(torch::kCPU).contiguous();
  const auto best_token = choice.token.to(torch::kCPU).contiguous();
  const auto* value = best.data_ptr<float>();
  const auto* token = best_token.data_ptr<int64_t>();
  for (size_t b = 0; b < rows_.size(); ++b) {
    Row& row = rows_[b];
    if (!row.used) continue;
    row.log_prob += value[b];
    const int64_t generated = column_ - row.start;
    const bool eos = token[b] == options_.eos_id;
    if (!eos) row.tokens.push_back(token[b]);
    row.last = token[b];
    if (eos || generated >= row.limit) {
      Hypothesis hypothesis;
      hypothesis.tokens = std::move(row.tokens);
      hypothesis.score = normalised_score(row.log_prob, generated, options_.length_penalty);
      ended.emplace_back(row.tag, std::move(hypothesis));
      row = Row{};
      --active_;
    }
  }
  shrink();
  return ended;
}

void GreedyStream::shrink() {
  if (active_ == 0) {
    caches_.clear();
    src_keep_ = torch::Tensor();
    rows_.clear();
    column_ = 0;
    return;
  }
  if (rows_.size() < 8 || 2 * active_ > rows_.size()) return;
  std::vector<int64_t> used;
  std::vector<Row> kept;
  for (size_t b = 0; b < rows_.size(); ++b) {
    if (!rows_[b].used) continue;
    used.push_back(static_cast<int64_t>(b));
    kept.push_back(std::move(rows_[b]));
  }
  const auto index = ids_on(used, device_);
  for (auto& cache : caches_) {  // [B,...] → [B',...]
    cache.self_k = cache.self_k.index_select(0, index);
    cache.self_v = cache.self_v.index_select(0, index);
    cache.cross_k = cache.cross_k.index_select(0, index);
    cache.cross_v = cache.cross_v.index_select(0, index);
  }
  src_keep_ = src_keep_.index_select(0, index);  // [B,S] → [B',S]
  rows_ = std::move(kept);
}

}  // namespace atento::model
