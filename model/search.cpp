#include "model/search.h"

#include <torch/torch.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "model/attention.h"
#include "model/beam_candidates.h"
#include "model/eval_mode.h"
#include "model/greedy_choice.h"
#include "model/tensor_values.h"

namespace atento::model {
namespace {

// What every search needs about its sources, checked once.
struct SearchPlan {
  std::vector<int64_t> src_len;  ///< real source tokens per sentence
  std::vector<int64_t> limit;    ///< most output tokens (eos included) per sentence
  torch::Tensor forbidden;       ///< token ids never emitted: pad, bos, and eos when forced
};

SearchPlan prepare(const Seq2Seq& model, const torch::Tensor& src, const SearchOptions& options) {
  const auto& arch = model->options();
  check_search_options(arch, src, options);
  SearchPlan plan;
  const auto lengths = padding_mask(src, kPadId).sum(1).to(torch::kCPU, torch::kLong);  // [B]
  const auto* length = lengths.data_ptr<int64_t>();
  for (int64_t b = 0; b < src.size(0); ++b) {
    plan.src_len.push_back(length[b]);
    plan.limit.push_back(output_limit(arch, length[b], options));
  }
  plan.forbidden = ids_on(forbidden_tokens(options), src.device());
  return plan;
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

// Adds one step to `partial`: row `row` of the step's attention (when recorded) and `token`
// (none when negative: the step emitted eos).
void grow(Partial& partial, const torch::Tensor& attention, int64_t row, int64_t token) {
  if (attention.defined()) {
    partial.attention.push_back(attention[row]);
  }
  if (token >= 0) {
    partial.tokens.push_back(token);
  }
}

// A copy of `partial` grown by one step (beams branch from a shared parent).
Partial extend(const Partial& partial, const torch::Tensor& attention, int64_t row, int64_t token) {
  Partial grown = partial;
  grow(grown, attention, row, token);
  return grown;
}

Hypothesis finish(const Partial& partial, float log_prob, int64_t generated, int64_t src_len,
                  const SearchOptions& options) {
  Hypothesis hypothesis;
  hypothesis.tokens = partial.tokens;
  hypothesis.score = normalised_score(log_prob, generated, options.length_penalty);
  if (!partial.attention.empty()) {
    // steps × [L,H,S] → [len,L,H,S]; per layer [len,H,S] → [H,len,S], real source columns only
    const auto all = torch::stack(partial.attention, 0).narrow(3, 0, src_len);
    for (int64_t layer = 0; layer < all.size(1); ++layer) {
      hypothesis.attention.push_back(all.select(1, layer).permute({1, 0, 2}).contiguous());
    }
  }
  return hypothesis;
}

// The rows being decoded, grouped by sentence: `width` rows per active sentence.
struct SearchRows {
  DecoderState state;
  std::vector<int64_t> sentences;  ///< the active sentence of each group of rows
  int64_t width = 1;               ///< rows per sentence: 1, then K in beam search
  std::vector<Partial> partial;    ///< greedy: per sentence; beam: per row
  torch::Tensor last;              ///< [R] int64, the tokens fed next
  torch::Tensor scores;            ///< [R] float, summed log-probabilities
};

// One row per sentence, bos fed first.
SearchRows start_rows(Seq2Seq& model, const torch::Tensor& src, const SearchOptions& options) {
  const int64_t sentences = src.size(0);
  const auto device = src.device();
  SearchRows rows;
  rows.state =
      model->start(model->encode(src), DecodeOptions{options.use_cache, options.record_attention});
  rows.sentences.resize(sentences);
  for (int64_t b = 0; b < sentences; ++b) {
    rows.sentences[b] = b;
  }
  rows.partial.resize(sentences);
  rows.last =
      torch::full({sentences}, options.bos_id, torch::TensorOptions(torch::kLong).device(device));
  rows.scores = torch::zeros({sentences}, torch::TensorOptions(torch::kFloat).device(device));
  return rows;
}

// --- Greedy search -------------------------------------------------------------------------

// Keeps rows `keep` (greedy: one per sentence) for the next step; none left ends the search.
void keep_greedy_rows(SearchRows& rows, const std::vector<int64_t>& keep) {
  if (keep.empty()) {
    rows.sentences.clear();
    return;
  }
  const auto indices = ids_on(keep, rows.last.device());
  rows.state.reorder_own(indices, /*same_sources=*/false);
  rows.scores = rows.scores.index_select(0, indices);  // [R] → [R']
  rows.last = rows.last.index_select(0, indices);      // [R] → [R']
  std::vector<int64_t> remaining;
  for (const int64_t row : keep) {
    remaining.push_back(rows.sentences[row]);
  }
  rows.sentences = std::move(remaining);
}

// One greedy step: each row takes its best token; rows that end (eos, or the length limit)
// become hypotheses and leave the batch, so later steps do less work.
void greedy_step(Seq2Seq& model, SearchRows& rows, const SearchPlan& plan,
                 const SearchOptions& options, int64_t step,
                 std::vector<std::vector<Hypothesis>>& results) {
  auto choice = greedy_choice(model->decode_step(rows.state, rows.last), plan.forbidden);  // [R]
  rows.scores += choice.log_prob;
  rows.last = choice.token;
  const auto tokens = long_values(choice.token);
  const auto totals = float_values(rows.scores);
  const auto attention = options.record_attention ? step_attention(rows.state) : torch::Tensor();
  std::vector<int64_t> keep;
  for (size_t row = 0; row < rows.sentences.size(); ++row) {
    const int64_t b = rows.sentences[row];
    const bool ended = tokens[row] == options.eos_id && options.force_len == 0;
    grow(rows.partial[b], attention, static_cast<int64_t>(row), ended ? -1 : tokens[row]);
    if (ended || step + 1 >= plan.limit[b]) {
      results[b].push_back(
          finish(rows.partial[b], totals[row], step + 1, plan.src_len[b], options));
    } else {
      keep.push_back(static_cast<int64_t>(row));
    }
  }
  if (keep.size() < rows.sentences.size()) {
    keep_greedy_rows(rows, keep);
  }
}

// --- Beam search ---------------------------------------------------------------------------

// The best 2K continuations of every active sentence, on the CPU.
struct Candidates {
  BeamCandidates best;      ///< [n·2K] summed log-probabilities and parent beam · V + token
  torch::Tensor attention;  ///< [R,L,H,S] when recorded
};

Candidates top_candidates(Seq2Seq& model, SearchRows& rows, const SearchPlan& plan,
                          const SearchOptions& options) {
  Candidates candidates;
  candidates.best = beam_candidates(model->decode_step(rows.state, rows.last), rows.scores,
                                    plan.forbidden, rows.width, 2 * options.beam);
  if (options.record_attention) {
    candidates.attention = step_attention(rows.state);
  }
  return candidates;
}

// The beams one sentence keeps: parent row, token and score of each.
struct Chosen {
  std::vector<int64_t> parents, tokens;
  std::vector<float> scores;
};

// Walks sentence i's candidates best first, up to K non-eos ones. Eos among the best K
// finishes a hypothesis (as in fairseq); other eos candidates are dropped.
Chosen choose_beams(const SearchRows& rows, const Candidates& candidates, int64_t i, int64_t vocab,
                    int64_t step, const SearchPlan& plan, const SearchOptions& options,
                    std::vector<Hypothesis>& finished) {
  const int64_t b = rows.sentences[i];
  Chosen chosen;
  const BeamCandidates& best = candidates.best;
  for (int64_t c = 0; c < best.count && static_cast<int64_t>(chosen.tokens.size()) < options.beam;
       ++c) {
    const float value = best.values[i * best.count + c];
    if (value == kNegInf) {
      break;
    }
    const int64_t flat = best.indices[i * best.count + c];
    const int64_t parent = i * rows.width + flat / vocab;
    const int64_t token = flat % vocab;
    if (token == options.eos_id && options.force_len == 0) {
      if (c < options.beam) {
        const auto ended = extend(rows.partial[parent], candidates.attention, parent, -1);
        finished.push_back(finish(ended, value, step + 1, plan.src_len[b], options));
      }
      continue;
    }
    chosen.parents.push_back(parent);
    chosen.tokens.push_back(token);
    chosen.scores.push_back(value);
  }
  return chosen;
}

// The rows of the next step, built sentence by sentence.
struct NextRows {
  std::vector<int64_t> sentences, parents, tokens;
  std::vector<float> scores;
  std::vector<Partial> partial;
};

// Sentence i after choosing its beams: done (K hypotheses, or nothing left to extend),
// finished at its length limit, or K rows of the next step.
void advance_sentence(const SearchRows& rows, const Candidates& candidates, int64_t i,
                      Chosen chosen, int64_t step, const SearchPlan& plan,
                      const SearchOptions& options, std::vector<Hypothesis>& finished,
                      NextRows& next) {
  const int64_t b = rows.sentences[i];
  if (static_cast<int64_t>(finished.size()) >= options.beam || chosen.tokens.empty()) {
    return;
  }
  auto grown = [&](size_t j) {
    return extend(rows.partial[chosen.parents[j]], candidates.attention, chosen.parents[j],
                  chosen.tokens[j]);
  };
  if (step + 1 >= plan.limit[b]) {
    for (size_t j = 0; j < chosen.tokens.size(); ++j) {
      finished.push_back(finish(grown(j), chosen.scores[j], step + 1, plan.src_len[b], options));
    }
    return;
  }
  // Too few finite candidates (a vocabulary smaller than the beam): repeat the last one at
  // -inf so every sentence keeps exactly K rows; such rows never win.
  while (static_cast<int64_t>(chosen.tokens.size()) < options.beam) {
    chosen.parents.push_back(chosen.parents.back());
    chosen.tokens.push_back(chosen.tokens.back());
    chosen.scores.push_back(kNegInf);
  }
  next.sentences.push_back(b);
  for (size_t j = 0; j < chosen.tokens.size(); ++j) {
    next.parents.push_back(chosen.parents[j]);
    next.tokens.push_back(chosen.tokens[j]);
    next.scores.push_back(chosen.scores[j]);
    next.partial.push_back(grown(j));
  }
}

// True when every next row's parent decodes the same source as that row does now: the same
// sentences as before, K rows each, each row's parent among its own sentence's K rows.
bool same_sources(const SearchRows& rows, const NextRows& next, int64_t beam) {
  if (rows.width != beam || next.sentences != rows.sentences) return false;
  for (size_t j = 0; j < next.parents.size(); ++j) {
    if (next.parents[j] / beam != static_cast<int64_t>(j) / beam) return false;
  }
  return true;
}

// One beam step over every active sentence; beam reordering, expansion to K rows and dropping
// finished sentences happen in one gather.
void beam_step(Seq2Seq& model, SearchRows& rows, const SearchPlan& plan,
               const SearchOptions& options, int64_t step,
               std::vector<std::vector<Hypothesis>>& finished) {
  const int64_t vocab = model->options().tgt_vocab;
  const auto candidates = top_candidates(model, rows, plan, options);
  NextRows next;
  for (int64_t i = 0; i < static_cast<int64_t>(rows.sentences.size()); ++i) {
    auto& done = finished[rows.sentences[i]];
    auto chosen = choose_beams(rows, candidates, i, vocab, step, plan, options, done);
    advance_sentence(rows, candidates, i, std::move(chosen), step, plan, options, done, next);
  }
  if (next.sentences.empty()) {
    rows.sentences.clear();
    return;
  }
  const auto device = rows.last.device();
  rows.state.reorder_own(ids_on(next.parents, device), same_sources(rows, next, options.beam));
  rows.last = ids_on(next.tokens, device);
  rows.scores = torch::tensor(next.scores, torch::kFloat).to(device);
  rows.partial = std::move(next.partial);
  rows.sentences = std::move(next.sentences);
  rows.width = options.beam;
}

// Best first (stable among equal scores), at most n_best per sentence.
void keep_n_best(std::vector<std::vector<Hypothesis>>& finished, int64_t n_best) {
  for (auto& hypotheses : finished) {
    std::stable_sort(hypotheses.begin(), hypotheses.end(),
                     [](const Hypothesis& a, const Hypothesis& b) { return a.score > b.score; });
    if (static_cast<int64_t>(hypotheses.size()) > n_best) {
      hypotheses.resize(n_best);
    }
  }
}

}  // namespace

void check_search_options(const ModelOptions& arch, const torch::Tensor& src,
                          const SearchOptions& options) {
  TORCH_CHECK(src.dim() == 2 && src.scalar_type() == torch::kLong,
              "search: source must be [B,S] int64 token ids, got ", src.sizes(), " ",
              src.scalar_type());
  auto is_token = [&](int64_t id) { return id >= 0 && id < arch.tgt_vocab && id != kPadId; };
  TORCH_CHECK(is_token(options.bos_id) && is_token(options.eos_id),
              "search: bos_id and eos_id must be target token ids other than padding (", kPadId,
              ") below ", arch.tgt_vocab, ", got ", options.bos_id, " and ", options.eos_id);
  TORCH_CHECK(options.beam >= 1, "search: beam must be >= 1, got ", options.beam);
  TORCH_CHECK(options.n_best >= 1 && options.n_best <= options.beam,
              "search: n_best must lie in 1..beam (", options.beam, "), got ", options.n_best);
  TORCH_CHECK(options.max_len_ratio >= 0.0 && options.max_len_extra >= 0,
              "search: max_len_ratio and max_len_extra must not be negative");
  TORCH_CHECK(options.force_len >= 0 && options.force_len <= arch.max_len,
              "search: force_len must lie in 0..max_len (", arch.max_len, "), got ",
              options.force_len);
}

int64_t output_limit(const ModelOptions& arch, int64_t src_len, const SearchOptions& options) {
  if (options.force_len > 0) return options.force_len;
  const auto by_ratio =
      static_cast<int64_t>(std::floor(options.max_len_ratio * static_cast<double>(src_len))) +
      options.max_len_extra;
  return std::max<int64_t>(1, std::min(arch.max_len, by_ratio));
}

std::vector<int64_t> forbidden_tokens(const SearchOptions& options) {
  // Padding and the start token are never outputs (a shared bos/eos id stays allowed).
  std::vector<int64_t> forbidden{kPadId};
  if (options.bos_id != options.eos_id) {
    forbidden.push_back(options.bos_id);
  }
  if (options.force_len > 0) {
    forbidden.push_back(options.eos_id);
  }
  return forbidden;
}

torch::Tensor ids_on(const std::vector<int64_t>& ids, const torch::Device& device) {
  return torch::tensor(ids, torch::kLong).to(device);
}

double normalised_score(double log_prob, int64_t generated, double length_penalty) {
  return log_prob / std::pow(static_cast<double>(generated), length_penalty);
}

std::vector<std::vector<Hypothesis>> greedy_search(Seq2Seq& model, const torch::Tensor& src,
                                                   const SearchOptions& options) {
  EvalModeGuard eval_mode(*model);
  const auto plan = prepare(model, src, options);
  std::vector<std::vector<Hypothesis>> results(src.size(0));
  if (results.empty()) {
    return results;
  }
  auto rows = start_rows(model, src, options);
  for (int64_t step = 0; !rows.sentences.empty(); ++step) {
    greedy_step(model, rows, plan, options, step, results);
  }
  return results;
}

std::vector<std::vector<Hypothesis>> beam_search(Seq2Seq& model, const torch::Tensor& src,
                                                 const SearchOptions& options) {
  EvalModeGuard eval_mode(*model);
  const auto plan = prepare(model, src, options);
  std::vector<std::vector<Hypothesis>> finished(src.size(0));
  if (finished.empty()) {
    return finished;
  }
  auto rows = start_rows(model, src, options);
  for (int64_t step = 0; !rows.sentences.empty(); ++step) {
    beam_step(model, rows, plan, options, step, finished);
  }
  keep_n_best(finished, options.n_best);
  return finished;
}

std::vector<std::vector<Hypothesis>> translate_batch(Seq2Seq& model, const torch::Tensor& src,
                                                     const SearchOptions& options) {
  return options.beam == 1 ? greedy_search(model, src, options) : beam_search(model, src, options);
}

}  // namespace atento::model
