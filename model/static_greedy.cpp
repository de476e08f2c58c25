#include "model/static_greedy.h"

#include <torch/torch.h>

#include <algorithm>

#include "model/block.h"
#include "model/eval_mode.h"
#include "model/greedy_choice.h"

namespace atento::model {
namespace {

torch::TensorOptions longs(const torch::Device& device) {
  return torch::TensorOptions(torch::kLong).device(device);
}

/// Allocates the layers' buffers like `cross` ([B,H,S',Dh], one layer's cross keys) for the
/// state's shape, the first time.
void allocate_caches(StaticGreedy& state, const std::vector<LayerCache>& computed) {
  if (!state.layers.empty()) return;
  for (const LayerCache& layer : computed) {
    const auto& k = layer.cross_k;  // [B,H,S',Dh]
    const auto options = k.options();
    LayerCache cache;
    cache.self_k = torch::zeros({state.rows(), k.size(1), state.capacity(), k.size(3)}, options);
    cache.self_v = torch::zeros_like(cache.self_k);
    cache.cross_k = torch::zeros({state.rows(), k.size(1), state.src_len(), k.size(3)}, options);
    cache.cross_v = torch::zeros_like(cache.cross_k);
    cache.write_position = state.step;  // shares the step's storage: written where it points
    state.layers.push_back(std::move(cache));
  }
}

}  // namespace

StaticGreedy make_static_greedy(const Seq2Seq& model, int64_t rows, int64_t src_len,
                                int64_t capacity, const SearchOptions& options,
                                const torch::Device& device) {
  const auto& arch = model->options();
  TORCH_CHECK(rows > 0 && src_len > 0 && capacity > 0 && capacity <= arch.max_len,
              "static greedy: rows and source length must be positive and the capacity within "
              "1..max_len (",
              arch.max_len, "), got ", rows, ", ", src_len, ", ", capacity);
  check_search_options(arch, torch::zeros({rows, src_len}, torch::kLong), options);
  TORCH_CHECK(options.use_cache && !options.record_attention,
              "static greedy: decodes with the cache and records no attention");
  StaticGreedy state;
  state.options = options;
  state.cross_keep =
      torch::zeros({rows, 1, 1, src_len}, torch::TensorOptions(torch::kBool).device(device));
  state.columns = torch::arange(capacity, longs(device));
  state.step = torch::zeros({1}, longs(device));
  state.last = torch::zeros({rows}, longs(device));
  state.limit = torch::zeros({rows}, longs(device));
  state.done = torch::ones({rows}, torch::TensorOptions(torch::kBool).device(device));
  state.tokens = torch::zeros({rows, capacity}, longs(device));
  state.generated = torch::zeros({rows}, longs(device));
  state.scores = torch::zeros({rows}, torch::TensorOptions(torch::kFloat).device(device));
  state.forbidden = ids_on(forbidden_tokens(options), device);
  return state;
}

void load_static_greedy(Seq2Seq& model, StaticGreedy& state, const torch::Tensor& src) {
  TORCH_CHECK(src.dim() == 2 && src.scalar_type() == torch::kLong && src.size(0) <= state.rows() &&
                  src.size(1) <= state.src_len(),
              "static greedy: source must be [B,S] int64 with B <= ", state.rows(),
              " and S <= ", state.src_len(), ", got ", src.sizes(), " ", src.scalar_type());
  const int64_t sentences = src.size(0), width = src.size(1);
  const auto encoded = model->encode(src);
  const auto computed = model->decoder->start_caches(encoded.memory);  // cross keys/values
  allocate_caches(state, computed);
  for (size_t i = 0; i < computed.size(); ++i) {
    LayerCache& cache = state.layers[i];
    TORCH_CHECK(computed[i].cross_k.scalar_type() == cache.cross_k.scalar_type(),
                "static greedy: the buffers were made for ", cache.cross_k.scalar_type(),
                " decoding, this batch decodes in ", computed[i].cross_k.scalar_type());
    cache.cross_k.zero_();
    cache.cross_v.zero_();
    // [B,H,S',Dh] into rows 0..B, columns 0..S' of [R,H,S,Dh]
    cache.cross_k.narrow(0, 0, sentences).narrow(2, 0, width).copy_(computed[i].cross_k);
    cache.cross_v.narrow(0, 0, sentences).narrow(2, 0, width).copy_(computed[i].cross_v);
  }
  state.cross_keep.zero_();
  // [B,S'] → [B,1,1,S'] into rows 0..B, columns 0..S' of [R,1,1,S]
  state.cross_keep.narrow(0, 0, sentences).narrow(3, 0, width).copy_(key_keep(encoded.src_keep));
  std::vector<int64_t> limits(static_cast<size_t>(state.rows()), 0);
  const auto lengths = encoded.src_keep.sum(1).to(torch::kCPU, torch::kLong).contiguous();  // [B]
  for (int64_t b = 0; b < sentences; ++b) {
    const int64_t limit =
        output_limit(model->options(), lengths.data_ptr<int64_t>()[b], state.options);
    TORCH_CHECK(limit <= state.capacity(), "static greedy: sentence ", b, " may take ", limit,
                " steps, the buffers hold ", state.capacity());
    limits[static_cast<size_t>(b)] = limit;
  }
  state.limit.copy_(torch::tensor(limits, torch::kLong));
  state.done.copy_(state.limit.eq(0));
  state.step.zero_();
  state.last.fill_(state.options.bos_id);
  state.tokens.fill_(kPadId);
  state.generated.zero_();
  state.scores.zero_();
}

void static_greedy_step(Seq2Seq& model, StaticGreedy& state) {
  const int64_t rows = state.rows();
  // The columns written so far, this step's included: [C] ≤ [1] → [C] → [1,1,1,C]
  const auto self_keep = state.columns.le(state.step).view({1, 1, 1, state.capacity()});
  const auto hidden = model->decoder->step_static(state.layers, state.last, state.step, self_keep,
                                                  state.cross_keep);               // [R,D]
  auto [best, token] = greedy_choice(model->project(hidden), state.forbidden);  // [R,V] → [R] each
  const auto live = state.done.logical_not();
  state.scores.add_(torch::where(live, best, torch::zeros_like(best)));
  state.generated.add_(live.to(torch::kLong));
  token = torch::where(live, token, torch::full_like(token, kPadId));
  state.tokens.index_copy_(1, state.step, token.view({rows, 1}));  // [R] → [R,1] at column step
  auto ended = state.generated.ge(state.limit);
  if (state.options.force_len == 0) ended = ended.logical_or(token.eq(state.options.eos_id));
  state.done.logical_or_(ended);
  state.last.copy_(token);
  state.step.add_(1);
}

bool static_greedy_done(const StaticGreedy& state) { return state.done.all().item<bool>(); }

std::vector<std::vector<Hypothesis>> static_greedy_results(const StaticGreedy& state,
                                                           int64_t sentences) {
  const auto tokens = state.tokens.to(torch::kCPU).contiguous();  // [R,C]
  const auto generated = state.generated.to(torch::kCPU);
  const auto scores = state.scores.to(torch::kCPU);
  std::vector<std::vector<Hypothesis>> results(static_cast<size_t>(sentences));
  for (int64_t b = 0; b < sentences; ++b) {
    const int64_t steps = generated[b].item<int64_t>();
    const int64_t* row = tokens[b].data_ptr<int64_t>();
    int64_t kept = steps;
    if (steps > 0 && state.options.force_len == 0 && row[steps - 1] == state.options.eos_id) {
      --kept;  // eos ends the sentence and is not an output token
    }
    Hypothesis hypothesis;
    hypothesis.tokens.assign(row, row + kept);
    hypothesis.score =
        normalised_score(scores[b].item<float>(), steps, state.options.length_penalty);
    results[b].push_back(std::move(hypothesis));
  }
  return results;
}

std::vector<std::vector<Hypothesis>> static_greedy_search(Seq2Seq& model, const torch::Tensor& src,
                                                          const SearchOptions& options) {
  EvalModeGuard eval_mode(*model);
  if (src.size(0) == 0) return {};
  const int64_t width = std::max<int64_t>(1, src.size(1));
  const int64_t capacity = output_limit(model->options(), width, options);
  auto state = make_static_greedy(model, src.size(0), width, capacity, options, src.device());
  load_static_greedy(model, state, src);
  for (int64_t step = 0; step < capacity && !static_greedy_done(state); ++step) {
    static_greedy_step(model, state);
  }
  return static_greedy_results(state, src.size(0));
}

}  // namespace atento::model
