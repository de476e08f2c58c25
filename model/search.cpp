#include "model/search.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <utility>

namespace atento::model {
namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// Puts the model in eval mode for the search and restores its previous mode afterwards, so a
// trainer that translates a validation batch keeps training with dropout.
class EvalModeGuard {
 public:
  explicit EvalModeGuard(Seq2Seq& model) : model_(model), was_training_(model->is_training()) {
    model_->eval();
  }
  ~EvalModeGuard() { model_->train(was_training_); }
  EvalModeGuard(const EvalModeGuard&) = delete;
  EvalModeGuard& operator=(const EvalModeGuard&) = delete;

 private:
  Seq2Seq& model_;
  bool was_training_;
};

// What every search needs about the batch, checked once.
struct Batch {
  std::vector<int64_t> src_len;  ///< real source tokens per sentence
  std::vector<int64_t> limit;    ///< most output tokens (eos included) per sentence
  torch::Tensor forbidden;       ///< token ids never emitted: pad, bos, and eos when forced
};

Batch prepare(const Seq2Seq& model, const torch::Tensor& src, const SearchOptions& options) {
  const auto& arch = model->options();
  TORCH_CHECK(src.dim() == 2 && src.scalar_type() == torch::kLong,
              "search: source must be [B,S] int64 token ids, got ", src.sizes(), " ",
              src.scalar_type());
  TORCH_CHECK(options.bos_id > 0 && options.bos_id < arch.tgt_vocab && options.eos_id > 0 &&
                  options.eos_id < arch.tgt_vocab,
              "search: bos_id and eos_id must be target token ids other than padding (1..",
              arch.tgt_vocab - 1, "), got ", options.bos_id, " and ", options.eos_id);
  TORCH_CHECK(options.beam >= 1, "search: beam must be >= 1, got ", options.beam);
  TORCH_CHECK(options.n_best >= 1 && options.n_best <= options.beam,
              "search: n_best must lie in 1..beam (", options.beam, "), got ", options.n_best);
  TORCH_CHECK(options.max_len_ratio >= 0.0 && options.max_len_extra >= 0,
              "search: max_len_ratio and max_len_extra must not be negative");
  TORCH_CHECK(options.force_len >= 0 && options.force_len <= arch.max_len,
              "search: force_len must lie in 0..max_len (", arch.max_len, "), got ",
              options.force_len);
  Batch batch;
  const auto lengths = padding_mask(src).sum(1).to(torch::kCPU, torch::kLong);  // [B]
  const auto* length = lengths.data_ptr<int64_t>();
  for (int64_t b = 0; b < src.size(0); ++b) {
    batch.src_len.push_back(length[b]);
    const auto by_ratio =
        static_cast<int64_t>(std::floor(options.max_len_ratio * static_cast<double>(length[b]))) +
        options.max_len_extra;
    batch.limit.push_back(options.force_len > 0
                              ? options.force_len
                              : std::max<int64_t>(1, std::min(arch.max_len, by_ratio)));
  }
  // Padding and the start token are never outputs (a shared bos/eos id stays allowed).
  std::vector<int64_t> forbidden{0};
  if (options.bos_id != options.eos_id) {
    forbidden.push_back(options.bos_id);
  }
  if (options.force_len > 0) {
    forbidden.push_back(options.eos_id);
  }
  batch.forbidden = torch::tensor(forbidden, torch::kLong).to(src.device());
  return batch;
}

// Next-token log-probabilities [R,V] in float, forbidden tokens at -inf.
torch::Tensor next_log_probs(Seq2Seq& model, DecoderState& state, const torch::Tensor& last,
                             const Batch& batch) {
  auto logp = torch::log_softmax(model->decode_step(state, last), -1, torch::kFloat);
  return logp.index_fill_(1, batch.forbidden, kNegInf);
}

// Cross attention of the newest position per row, on the CPU: L × [R,H,S] → [R,L,H,S].
torch::Tensor step_attention(const DecoderState& state) {
  return torch::stack(state.cross_attention, 1).to(torch::kCPU, torch::kFloat);
}

// One row's history while it is decoded.
struct Partial {
  std::vector<int64_t> tokens;
  std::vector<torch::Tensor> attention;  ///< per step: [L,H,S]
};

Hypothesis finish(const Partial& partial, float log_prob, int64_t generated, int64_t src_len,
                  const SearchOptions& options) {
  Hypothesis hypothesis;
  hypothesis.tokens = partial.tokens;
  hypothesis.score = static_cast<double>(log_prob) /
                     std::pow(static_cast<double>(generated), options.length_penalty);
  if (!partial.attention.empty()) {
    // steps × [L,H,S] → [len,L,H,S]; per layer [len,H,S] → [H,len,S], real source columns only
    const auto all = torch::stack(partial.attention, 0).narrow(3, 0, src_len);
    for (int64_t layer = 0; layer < all.size(1); ++layer) {
      hypothesis.attention.push_back(all.select(1, layer).permute({1, 0, 2}).contiguous());
    }
  }
  return hypothesis;
}

std::vector<int64_t> to_vector(const torch::Tensor& t) {
  const auto cpu = t.to(torch::kCPU, torch::kLong).contiguous();
  return {cpu.data_ptr<int64_t>(), cpu.data_ptr<int64_t>() + cpu.numel()};
}

std::vector<float> to_float_vector(const torch::Tensor& t) {
  const auto cpu = t.to(torch::kCPU, torch::kFloat).contiguous();
  return {cpu.data_ptr<float>(), cpu.data_ptr<float>() + cpu.numel()};
}

torch::Tensor to_device(const std::vector<int64_t>& values, const torch::Device& device) {
  return torch::tensor(values, torch::kLong).to(device);
}

}  // namespace

std::vector<std::vector<Hypothesis>> greedy_search(Seq2Seq& model, const torch::Tensor& src,
                                                   const SearchOptions& options) {
  torch::NoGradGuard no_grad;
  EvalModeGuard eval_mode(model);
  const auto batch = prepare(model, src, options);
  const auto device = src.device();
  const int64_t sentences = src.size(0);
  std::vector<std::vector<Hypothesis>> results(sentences);
  if (sentences == 0) {
    return results;
  }
  auto state =
      model->start(model->encode(src), DecodeOptions{options.use_cache, options.record_attention});
  std::vector<int64_t> sentence_of_row(sentences);
  std::vector<Partial> partial(sentences);
  for (int64_t b = 0; b < sentences; ++b) {
    sentence_of_row[b] = b;
  }
  auto last =
      torch::full({sentences}, options.bos_id, torch::TensorOptions(torch::kLong).device(device));
  auto scores = torch::zeros({sentences}, torch::TensorOptions(torch::kFloat).device(device));
  for (int64_t step = 0; !sentence_of_row.empty(); ++step) {
    auto [best, best_token] = next_log_probs(model, state, last, batch).max(-1);  // [R], [R]
    scores += best;
    const auto tokens = to_vector(best_token);
    const auto totals = to_float_vector(scores);
    const auto attention = options.record_attention ? step_attention(state) : torch::Tensor();
    std::vector<int64_t> keep;
    for (size_t row = 0; row < sentence_of_row.size(); ++row) {
      const int64_t b = sentence_of_row[row];
      auto& part = partial[b];
      if (attention.defined()) {
        part.attention.push_back(attention[row]);
      }
      const bool ended = tokens[row] == options.eos_id && options.force_len == 0;
      if (!ended) {
        part.tokens.push_back(tokens[row]);
      }
      if (ended || step + 1 >= batch.limit[b]) {
        results[b].push_back(finish(part, totals[row], step + 1, batch.src_len[b], options));
      } else {
        keep.push_back(static_cast<int64_t>(row));
      }
    }
    if (keep.size() < sentence_of_row.size()) {
      // Finished sentences leave the batch, so later steps do less work.
      if (keep.empty()) {
        break;
      }
      const auto rows = to_device(keep, device);
      state.reorder(rows);
      scores = scores.index_select(0, rows);          // [R] → [R']
      best_token = best_token.index_select(0, rows);  // [R] → [R']
      std::vector<int64_t> remaining;
      for (const int64_t row : keep) {
        remaining.push_back(sentence_of_row[row]);
      }
      sentence_of_row = std::move(remaining);
    }
    last = best_token;
  }
  return results;
}

std::vector<std::vector<Hypothesis>> beam_search(Seq2Seq& model, const torch::Tensor& src,
                                                 const SearchOptions& options) {
  torch::NoGradGuard no_grad;
  EvalModeGuard eval_mode(model);
  const auto batch = prepare(model, src, options);
  const auto device = src.device();
  const int64_t sentences = src.size(0);
  const int64_t beam = options.beam;
  const int64_t vocab = model->options().tgt_vocab;
  std::vector<std::vector<Hypothesis>> finished(sentences);
  if (sentences == 0) {
    return finished;
  }
  auto state =
      model->start(model->encode(src), DecodeOptions{options.use_cache, options.record_attention});
  // Rows are grouped by sentence, `width` rows per active sentence: 1 at the first step (every
  // beam would be the same), K afterwards.
  std::vector<int64_t> active(sentences);
  for (int64_t b = 0; b < sentences; ++b) {
    active[b] = b;
  }
  int64_t width = 1;
  std::vector<Partial> partial(sentences);
  auto last =
      torch::full({sentences}, options.bos_id, torch::TensorOptions(torch::kLong).device(device));
  auto scores = torch::zeros({sentences}, torch::TensorOptions(torch::kFloat).device(device));
  for (int64_t step = 0; !active.empty(); ++step) {
    const int64_t n = static_cast<int64_t>(active.size());
    auto logp = next_log_probs(model, state, last, batch);  // [n·width, V]
    // [n·width,1] + [n·width,V] → [n, width·V]: every continuation of every beam of a sentence
    auto candidates = (scores.unsqueeze(1) + logp).view({n, width * vocab});
    auto [top_scores, top_index] = candidates.topk(std::min(2 * beam, width * vocab), 1);  // [n,2K]
    const int64_t count = top_scores.size(1);
    const auto values = to_float_vector(top_scores);
    const auto indices = to_vector(top_index);
    const auto attention = options.record_attention ? step_attention(state) : torch::Tensor();

    std::vector<int64_t> next_active, parents, next_tokens;
    std::vector<float> next_scores;
    std::vector<Partial> next_partial;
    for (int64_t i = 0; i < n; ++i) {
      const int64_t b = active[i];
      auto extend = [&](int64_t parent_row, int64_t token) {
        Partial grown = partial[parent_row];
        if (attention.defined()) {
          grown.attention.push_back(attention[parent_row]);
        }
        if (token >= 0) {
          grown.tokens.push_back(token);
        }
        return grown;
      };
      std::vector<std::pair<int64_t, int64_t>> chosen;  // (parent row, token)
      std::vector<float> chosen_scores;
      for (int64_t c = 0; c < count && static_cast<int64_t>(chosen.size()) < beam; ++c) {
        const float value = values[i * count + c];
        if (value == kNegInf) {
          break;
        }
        const int64_t flat = indices[i * count + c];
        const int64_t parent_row = i * width + flat / vocab;
        const int64_t token = flat % vocab;
        if (token == options.eos_id && options.force_len == 0) {
          // Only eos among the best K candidates finishes a hypothesis (as in fairseq).
          if (c < beam) {
            finished[b].push_back(
                finish(extend(parent_row, -1), value, step + 1, batch.src_len[b], options));
          }
          continue;
        }
        chosen.emplace_back(parent_row, token);
        chosen_scores.push_back(value);
      }
      const bool at_limit = step + 1 >= batch.limit[b];
      if (static_cast<int64_t>(finished[b].size()) >= beam || chosen.empty()) {
        continue;
      }
      if (at_limit) {
        for (size_t j = 0; j < chosen.size(); ++j) {
          finished[b].push_back(finish(extend(chosen[j].first, chosen[j].second), chosen_scores[j],
                                       step + 1, batch.src_len[b], options));
        }
        continue;
      }
      // Too few finite candidates (a vocabulary smaller than the beam): repeat the last one at
      // -inf so every sentence keeps exactly K rows; such rows never win.
      while (static_cast<int64_t>(chosen.size()) < beam) {
        chosen.push_back(chosen.back());
        chosen_scores.push_back(kNegInf);
      }
      next_active.push_back(b);
      for (size_t j = 0; j < chosen.size(); ++j) {
        parents.push_back(chosen[j].first);
        next_tokens.push_back(chosen[j].second);
        next_scores.push_back(chosen_scores[j]);
        next_partial.push_back(extend(chosen[j].first, chosen[j].second));
      }
    }
    if (next_active.empty()) {
      break;
    }
    // Beam reordering, expansion to K rows and dropping finished sentences in one gather.
    state.reorder(to_device(parents, device));
    last = to_device(next_tokens, device);
    scores = torch::tensor(next_scores, torch::kFloat).to(device);
    partial = std::move(next_partial);
    active = std::move(next_active);
    width = beam;
  }
  for (auto& hypotheses : finished) {
    std::stable_sort(hypotheses.begin(), hypotheses.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (static_cast<int64_t>(hypotheses.size()) > options.n_best) {
      hypotheses.resize(options.n_best);
    }
  }
  return finished;
}

std::vector<std::vector<Hypothesis>> translate_batch(Seq2Seq& model, const torch::Tensor& src,
                                                     const SearchOptions& options) {
  return options.beam == 1 ? greedy_search(model, src, options) : beam_search(model, src, options);
}

}  // namespace atento::model
