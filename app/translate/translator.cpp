#include "app/translate/translator.h"

#include <malloc.h>
#include <torch/torch.h>

#include <algorithm>
#include <cstdio>
#include <deque>
#include <fstream>
#include <iostream>
#include <nlohmann/json.hpp>
#include <numeric>
#include <optional>
#include <sstream>
#include <utility>

#include "app/common/cuda_graph.h"
#include "app/common/files.h"
#include "app/common/heap.h"
#include "app/common/precision.h"
#include "app/common/runtime.h"
#include "app/common/stopwatch.h"
#include "app/translate/attention_records.h"
#include "app/translate/greedy_graphs.h"
#include "app/translate/greedy_workers.h"
#include "app/translate/html_translation.h"
#include "app/translate/input_lines.h"
#include "data/corpus.h"
#include "data/html_document.h"
#include "data/line_reader.h"
#include "data/segmentation.h"
#include "data/text_io.h"
#include "data/utf8.h"

namespace atento {

model::SearchOptions search_options(const TrainedModel& trained) {
  const auto& t = trained.config.translate;
  model::SearchOptions search;
  search.beam = t.beam;
  search.length_penalty = t.length_penalty;
  search.n_best = t.n_best;
  search.max_len_ratio = t.max_len_ratio;
  search.max_len_extra = t.max_len_extra;
  search.use_cache = t.use_cache;
  search.bos_id = trained.vocab->tgt().bos_id();
  search.eos_id = trained.vocab->tgt().eos_id();
  return search;
}

std::vector<std::vector<model::Hypothesis>> translate_sources(
    TrainedModel& trained, const std::vector<std::vector<int64_t>>& sources,
    const model::SearchOptions& search, int64_t batch_size, GreedyGraphs* graphs) {
  std::vector<std::vector<model::Hypothesis>> results(sources.size());
  std::vector<size_t> order(sources.size());
  std::iota(order.begin(), order.end(), 0);
  // Longest first: each later batch needs no larger buffers than an earlier one, so the
  // allocator reuses freed memory instead of growing the heap (ascending order grew the peak
  // RSS with the input: 306 MB for 500 test sentences, 400 MB for 2,000).
  std::stable_sort(order.begin(), order.end(),
                   [&](size_t a, size_t b) { return sources[a].size() > sources[b].size(); });
  // [B·beam] rows share the decoder: a wider beam takes fewer sentences per batch.
  const auto sentences = static_cast<size_t>(std::max<int64_t>(1, batch_size / search.beam));
  for (size_t begin = 0; begin < order.size(); begin += sentences) {
    size_t end = std::min(order.size(), begin + sentences);
    size_t width = 1;  // at least one (padding) column, so an empty source still decodes
    for (size_t i = begin; i < end; ++i) width = std::max(width, sources[order[i]].size());
    std::vector<int64_t> buffer((end - begin) * width, 0);
    for (size_t i = begin; i < end; ++i) {
      const auto& ids = sources[order[i]];
      std::copy(ids.begin(), ids.end(), buffer.begin() + (i - begin) * width);
    }
    auto src = torch::from_blob(buffer.data(),
                                {static_cast<int64_t>(end - begin), static_cast<int64_t>(width)},
                                torch::kInt64)
                   .to(trained.device);  // [B,S]
    std::vector<std::vector<model::Hypothesis>> hypotheses;
    {
      DecodingPrecisionGuard precision(trained.config.translate.precision, trained.device);
      hypotheses = graphs ? graphs->run(src) : model::translate_batch(trained.model, src, search);
    }
    for (size_t i = begin; i < end; ++i) results[order[i]] = std::move(hypotheses[i - begin]);
    // Give the batch's freed buffers back to glibc's system heap: without this it keeps the
    // high-water mark of every batch shape seen (2,000 sentences, beam 4: part of 327 → 272 MB).
    // Not jemalloc's (release_free_memory): faulting a batch's pages in again cost 2.3×.
    malloc_trim(0);
  }
  return results;
}

std::vector<std::string> translate_texts(TrainedModel& trained,
                                         const std::vector<std::string>& texts,
                                         const model::SearchOptions& search) {
  std::optional<Segmenter> held;
  Segmenter* segmenter = segmenter_for(held, trained.config);
  std::vector<SegmentedText> segmented(texts.size());
  std::vector<std::vector<int64_t>> sources;
  for (size_t i = 0; i < texts.size(); ++i) {
    if (!data::is_valid_utf8(texts[i])) continue;
    segmented[i] = segment_text(*trained.vocab, texts[i], segmenter);
    sources.insert(sources.end(), segmented[i].sources.begin(), segmented[i].sources.end());
  }
  const auto found =
      translate_sources(trained, sources, search, trained.config.translate.batch_size);
  std::vector<std::string> out;
  size_t next = 0;
  for (const SegmentedText& text : segmented) {
    std::vector<std::string> pieces;
    for (size_t k = 0; k < text.sources.size(); ++k, ++next) {
      pieces.push_back(found[next].empty() ? ""
                                           : trained.vocab->decode_target(found[next][0].tokens));
    }
    out.push_back(join_translations(text, pieces));
  }
  return out;
}

namespace {

/// Rank `rank`'s translation of a line of several pieces: each piece's hypothesis of that
/// rank (its last when it has fewer) joined with the line's spacing; its score the mean of
/// theirs.
std::pair<std::string, double> line_translation(
    const TrainedModel& trained, const SegmentedText& line,
    const std::vector<std::vector<model::Hypothesis>>& hypotheses, size_t first, size_t rank) {
  std::vector<std::string> texts;
  double score = 0.0;
  for (size_t k = 0; k < line.sources.size(); ++k) {
    const auto& found = hypotheses[first + k];
    if (found.empty()) {
      texts.emplace_back();
      continue;
    }
    const auto& h = found[std::min(rank, found.size() - 1)];
    texts.push_back(trained.vocab->decode_target(h.tokens));
    score += h.score;
  }
  return {join_translations(line, texts), score / std::max<size_t>(1, line.sources.size())};
}

/// What one window of lines gives: its output text, the target tokens of the best
/// translations, and its attention records (JSON objects, comma-separated).
struct WindowOutput {
  std::string text;
  int64_t target_tokens = 0;
  std::vector<std::string> attention;
};

/// Every line's translations in input order (skipped lines as empty output): the best, or
/// n_best lines rank<TAB>score<TAB>text, each ended by `line_end` (the input's); with
/// `record_attention`, one record per piece.
WindowOutput render_window(const TrainedModel& trained, const EncodedInput& in, size_t first_line,
                           const std::vector<std::vector<model::Hypothesis>>& hypotheses,
                           bool record_attention, const std::string& line_end) {
  WindowOutput out;
  const auto n_best = static_cast<size_t>(trained.config.translate.n_best);
  for (size_t i = 0; i < in.lines.size(); ++i) {
    const SegmentedText& line = in.lines[i];
    for (size_t r = 0; r < n_best; ++r) {
      // A line without sources: empty, or its addresses and emoji as they are.
      auto [text, score] = line.sources.empty()
                               ? std::pair<std::string, double>{join_translations(line, {}), 0.0}
                               : line_translation(trained, line, hypotheses, in.first[i], r);
      if (n_best == 1) {
        out.text += text + line_end;
      } else {
        char rank_score[48];
        std::snprintf(rank_score, sizeof rank_score, "%zu\t%.4f\t", r + 1, score);
        out.text += rank_score + text + line_end;
      }
    }
    for (size_t k = 0; k < line.sources.size(); ++k) {
      const auto& found = hypotheses[in.first[i] + k];
      if (!found.empty()) out.target_tokens += static_cast<int64_t>(found[0].tokens.size());
    }
  }
  if (record_attention) {
    for (const auto& record : attention_records(trained, in, first_line, hypotheses)) {
      out.attention.push_back(record.dump());
    }
  }
  return out;
}

/// Decodes windows of lines: greedy on a GreedyPool whose workers run from one window into the
/// next, as atento-serve decodes (greedy_workers.h); beam search, --attention, --force-len and
/// --no-cache in length-sorted whole batches when the window is collected.
class WindowDecoder {
 public:
  WindowDecoder(TrainedModel& trained, const model::SearchOptions& search)
      : trained_(trained), search_(search) {
    const auto& t = trained.config.translate;
    if (t.cuda_graphs) {
      set_up_graphs();
    } else if (greedy_streamable(search)) {
      pool_.emplace(trained, search, static_cast<size_t>(t.batch_size),
                    decoder_threads(t.threads, 0, trained.device));
    }
  }

  /// Starts decoding `in` where the pool does; the ticket for collect().
  size_t submit(const EncodedInput& in) { return pool_ ? pool_->submit(in.sources) : 0; }

  /// `in`'s hypotheses, in source order.
  std::vector<std::vector<model::Hypothesis>> collect(size_t ticket, const EncodedInput& in) {
    auto hypotheses = pool_ ? pool_->collect(ticket)
                            : translate_sources(trained_, in.sources, search_,
                                                trained_.config.translate.batch_size,
                                                graphs_ ? &*graphs_ : nullptr);
    // The window's freed buffers back to the system, jemalloc's too: a stream's peak then stays
    // nearer that of its first window.
    release_free_memory();
    return hypotheses;
  }

 private:
  /// translate.cuda_graphs: greedy batches through GreedyGraphs, where the search is greedy.
  void set_up_graphs() {
    if (!greedy_streamable(search_)) {
      std::cerr << "translate.cuda_graphs: off for this search (graphs decode greedily: beam "
                   "1, cached, without --attention or --force-len)\n";
      return;
    }
    graphs_.emplace(trained_.model, search_, trained_.device, /*capture=*/true);
    if (!graphs_->capturing()) {
      std::cerr << "translate.cuda_graphs: no CUDA graphs on " << trained_.device
                << (cuda_graphs_built() ? "" : " (LibTorch without CUDA)")
                << ": the steps run their graph form eagerly (padded, the same arithmetic; a "
                   "check, slower)\n";
    }
  }

  TrainedModel& trained_;
  const model::SearchOptions search_;
  std::optional<GreedyPool> pool_;
  std::optional<GreedyGraphs> graphs_;
};

/// A window read, encoded and handed to the decoder, not yet written.
struct PendingWindow {
  EncodedInput in;
  size_t first_line = 1;
  size_t ticket = 0;
};

void print_summary(size_t sentences, int64_t target_tokens, double seconds,
                   const model::SearchOptions& search) {
  char summary[256];
  std::snprintf(summary, sizeof summary,
                "translated %zu sentences, %lld target tokens in %.2f s: %.1f "
                "sentences/s, "
                "%.1f tokens/s (beam %lld, %s)\n",
                sentences, static_cast<long long>(target_tokens), seconds,
                sentences / std::max(seconds, 1e-9), target_tokens / std::max(seconds, 1e-9),
                static_cast<long long>(search.beam), search.use_cache ? "cached" : "no cache");
  std::cerr << summary;
}

/// --format html: the whole input as one document, translated and written at once.
int run_html_translation(TrainedModel& trained, const model::SearchOptions& search,
                         Segmenter* segmenter, const TranslateArgs& args) {
  if (search.record_attention || trained.config.translate.n_best > 1) {
    throw ConfigError("--format html: --attention and --n-best are for text only");
  }
  const std::string input_name = args.input.empty() ? "<stdin>" : args.input;
  const Stopwatch watch;
  const std::string html = read_html_input(args.input);
  HtmlTranslation done;
  try {
    done = translate_html(trained, html, search, segmenter);
  } catch (const data::HtmlError& e) {
    throw std::runtime_error(input_name + ": " + e.what());
  }
  const std::string cut = cut_warning(done.cut, trained.config.tokenizer.src_len);
  if (!cut.empty()) std::cerr << "warning: " << input_name << ": " << cut << "\n";
  data::OutputFile out(args.output);
  out.write(done.html);
  out.commit();
  print_summary(static_cast<size_t>(done.pieces), done.target_tokens, watch.seconds(), search);
  return kExitOk;
}

}  // namespace

int run_translation(const TranslateArgs& args) {
  auto trained =
      load_trained_model(args.model_dir, with_flag_overrides(args.overrides, args.flags));
  set_threads(trained.config.translate.threads);
  auto search = search_options(trained);
  search.record_attention = !args.attention_file.empty();
  if (args.force_len > trained.config.model.max_len) {
    throw ConfigError("--force-len: must be at most the model's max_len (" +
                      std::to_string(trained.config.model.max_len) + "), got " +
                      std::to_string(args.force_len));
  }
  search.force_len = args.force_len;
  std::optional<Segmenter> held;
  Segmenter* segmenter = segmenter_for(held, trained.config);
  if (args.format == "html") {
    return run_html_translation(trained, search, segmenter, args);
  }
  const std::string input_name = args.input.empty() ? "<stdin>" : args.input;
  const Stopwatch watch;
  data::LineReader reader(args.input);
  data::OutputFile out(args.output);
  std::optional<data::OutputFile> attention;
  if (search.record_attention) attention.emplace(args.attention_file);
  // Window by window: memory holds two windows at most, the one decoding and, from a regular
  // file, the next one, queued behind it so that the workers never wait while a window is read,
  // encoded or written; an interactive input is answered before its next line is awaited.
  const size_t ahead = reader.interactive() ? 0 : 1;
  WindowDecoder decoder(trained, search);
  std::deque<PendingWindow> pending;
  size_t line = 1, pieces = 0, records = 0;
  int64_t target_tokens = 0;
  std::vector<std::string> lines;
  bool more = true;
  while (more || !pending.empty()) {
    more = more && reader.next_window(lines, static_cast<size_t>(args.window));
    if (more) {
      PendingWindow next{
          encode_input(*trained.vocab, lines, input_name, line, segmenter, std::cerr), line, 0};
      next.ticket = decoder.submit(next.in);
      pending.push_back(std::move(next));
      line += lines.size();
    }
    if (pending.empty() || (more && pending.size() <= ahead)) continue;
    const PendingWindow& done = pending.front();
    const auto hypotheses = decoder.collect(done.ticket, done.in);
    const WindowOutput window = render_window(trained, done.in, done.first_line, hypotheses,
                                              attention.has_value(), reader.line_end());
    out.write(window.text);
    for (const auto& record : window.attention) attention->write((records++ ? "," : "[") + record);
    target_tokens += window.target_tokens;
    pieces += done.in.sources.size();
    pending.pop_front();
  }
  out.commit();
  if (attention) {
    attention->write(records ? "]\n" : "[]\n");
    attention->commit();
  }
  print_summary(pieces, target_tokens, watch.seconds(), search);
  return kExitOk;
}

}  // namespace atento
