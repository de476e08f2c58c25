#include "model/decoder_state.h"

#include <algorithm>

namespace atento::model {
namespace {

// [B,...] → [B',...]: rows `indices` of x (undefined stays undefined).
torch::Tensor select_rows(const torch::Tensor& x, const torch::Tensor& indices) {
  return x.defined() ? x.index_select(0, indices) : x;
}

}  // namespace

void LayerCache::append(const torch::Tensor& k, const torch::Tensor& v) {
  TORCH_CHECK(k.dim() == 4 && k.sizes() == v.sizes(),
              "LayerCache::append: keys and values must be [B,H,T,Dh], got ", k.sizes(), " and ",
              v.sizes());
  if (write_position.defined()) {
    TORCH_CHECK(k.size(2) == 1 && self_k.defined() && k.size(0) == self_k.size(0),
                "LayerCache::append: a fixed-shape cache takes one position of its rows at a time");
    // [B,H,1,Dh] into column write_position of [B,H,capacity,Dh]
    self_k.index_copy_(2, write_position, k);
    self_v.index_copy_(2, write_position, v);
    return;
  }
  const int64_t added = k.size(2), needed = length + added;
  const int64_t capacity = self_k.defined() ? self_k.size(2) : 0;
  if (needed > capacity) {
    // Doubling keeps the total copying linear in the decoded length.
    const int64_t grown = std::max({needed, 2 * capacity, int64_t{16}});
    auto grow = [&](const torch::Tensor& old) {
      // [B,H,capacity,Dh] → [B,H,grown,Dh], filled part copied
      auto buffer = torch::empty({k.size(0), k.size(1), grown, k.size(3)}, k.options());
      if (length > 0) {
        buffer.narrow(2, 0, length).copy_(old.narrow(2, 0, length));
      }
      return buffer;
    };
    self_k = grow(self_k);
    self_v = grow(self_v);
  }
  // [B,H,T,Dh] into positions length..length+T-1 of [B,H,capacity,Dh]
  self_k.narrow(2, length, added).copy_(k);
  self_v.narrow(2, length, added).copy_(v);
  length = needed;
}

void LayerCache::keep_from(int64_t column) {
  TORCH_CHECK(column >= 0 && column <= length, "LayerCache::keep_from: column ", column,
              " outside 0..", length);
  if (column == 0) return;
  const int64_t kept = length - column;
  if (kept > 0) {
    // [B,H,column..length,Dh] → [B,H,0..kept,Dh]; a copy first, as the ranges may overlap
    self_k.narrow(2, 0, kept).copy_(self_k.narrow(2, column, kept).clone());
    self_v.narrow(2, 0, kept).copy_(self_v.narrow(2, column, kept).clone());
  }
  length = kept;
  first = std::max<int64_t>(0, first - column);
}

void DecoderState::reorder(const torch::Tensor& indices) {
  TORCH_CHECK(indices.dim() == 1, "DecoderState::reorder: indices must be [B'], got ",
              indices.sizes());
  const auto rows_on_device = indices.to(src_keep.device(), torch::kLong);
  for (auto& cache : layers) {
    cache.self_k = select_rows(cache.self_k, rows_on_device);
    cache.self_v = select_rows(cache.self_v, rows_on_device);
    cache.cross_k = select_rows(cache.cross_k, rows_on_device);
    cache.cross_v = select_rows(cache.cross_v, rows_on_device);
  }
  src_keep = select_rows(src_keep, rows_on_device);
  memory = select_rows(memory, rows_on_device);
  prefix = select_rows(prefix, rows_on_device);
  for (auto& weights : cross_attention) {
    weights = select_rows(weights, rows_on_device);
  }
}

namespace {

// True when `indices` ([B'] int64) are 0..rows-1 in order.
bool identity(const torch::Tensor& indices, int64_t rows) {
  if (indices.size(0) != rows) return false;
  const auto on_cpu = indices.to(torch::kCPU, torch::kLong).contiguous();
  const int64_t* at = on_cpu.data_ptr<int64_t>();
  for (int64_t i = 0; i < rows; ++i) {
    if (at[i] != i) return false;
  }
  return true;
}

}  // namespace

void DecoderState::reorder_own(const torch::Tensor& indices, bool same_sources) {
  TORCH_CHECK(indices.dim() == 1, "DecoderState::reorder_own: indices must be [B'], got ",
              indices.sizes());
  if (identity(indices, rows())) return;
  if (!same_sources || indices.size(0) != rows()) {
    reorder(indices);
    return;
  }
  const auto rows_on_device = indices.to(src_keep.device(), torch::kLong);
  for (auto& cache : layers) {
    cache.self_k = select_rows(cache.self_k, rows_on_device);
    cache.self_v = select_rows(cache.self_v, rows_on_device);
  }
  prefix = select_rows(prefix, rows_on_device);
  for (auto& weights : cross_attention) {
    weights = select_rows(weights, rows_on_device);
  }
}

}  // namespace atento::model
