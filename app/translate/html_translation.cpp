#include "app/translate/html_translation.h"

#include <torch/torch.h>

#include <algorithm>
#include <cctype>
#include <iostream>
#include <stdexcept>
#include <utility>
#include <vector>

#include "app/translate/tag_placement.h"
#include "app/translate/text_segments.h"
#include "app/translate/translator.h"
#include "app/translate/word_alignment.h"
#include "data/html_document.h"
#include "data/letter_case.h"
#include "data/text_io.h"
#include "data/verbatim_spans.h"
#include "data/word_lexicon.h"

namespace atento {

namespace {

/// Pieces translated together: the attention they record is held until their blocks are done.
constexpr size_t kPiecesPerRound = 128;

/// A block as the model reads it: its words joined by single spaces (white space in HTML is
/// layout, and a line break would end a sentence for the segmenter), the white space around
/// it kept for the translation.
struct BlockSource {
  std::string lead, trail;
  std::string text;
  std::vector<data::TextSpan> words;  ///< of the block's own text (the same words as `text`)
  SegmentedText segmented;
};

/// The index of the word of `words` that holds byte `at` (or the first after it).
size_t word_at(const std::vector<data::TextSpan>& words, size_t at) {
  const auto found = std::upper_bound(words.begin(), words.end(), at,
                                      [](size_t b, const data::TextSpan& w) { return b < w.end; });
  return static_cast<size_t>(found - words.begin());
}

/// Where the items of a block of items start and end (bytes of its text; none for another
/// block). A block of items is a menu, a breadcrumb or a row of buttons: two or more elements
/// (links, buttons, spans) with only white space and separators outside them ("Home ·
/// About us", one link a line), each gap between two of them holding a line break or a
/// separator. Each item is translated on its own: read as one sentence, "Home About us
/// Contact" comes out as nonsense that spills from one link into the next.
std::vector<size_t> item_breaks(const data::TextBlock& block) {
  std::vector<const data::InlineSpan*> items;
  for (const auto& span : block.spans) {
    if (span.parent < 0 && span.begin < span.end) items.push_back(&span);
  }
  if (items.size() < 2) return {};
  std::vector<size_t> breaks;
  size_t outside = 0;  // the end of the last item
  for (size_t i = 0; i <= items.size(); ++i) {
    const size_t begin = i < items.size() ? items[i]->begin : block.text.size();
    const std::string_view gap = std::string_view(block.text).substr(outside, begin - outside);
    if (data::has_letters(gap)) return {};
    const bool between = i > 0 && i < items.size();
    if (between && gap.find_first_not_of(" \t") == std::string_view::npos) return {};
    if (i == items.size()) break;
    breaks.push_back(items[i]->begin);
    breaks.push_back(items[i]->end);
    outside = items[i]->end;
  }
  return breaks;
}

/// The gaps between `source`'s pieces where a line break ended an item: the block's own text
/// there (its spacing, and separators such as "·" or "|"), copied into the translation.
void keep_item_spacing(const std::string& block_text, BlockSource& source) {
  const auto model_words = data::text_words(source.text);
  SegmentedText& segmented = source.segmented;
  for (size_t k = 1; k < segmented.spans.size(); ++k) {
    const size_t end = segmented.spans[k - 1].end, begin = segmented.spans[k].begin;
    if (source.text.find('\n', end) >= begin) continue;
    const size_t before = word_at(model_words, end) - 1, after = word_at(model_words, begin);
    segmented.gaps[k] = block_text.substr(source.words[before].end,
                                          source.words[after].begin - source.words[before].end);
  }
}

BlockSource block_source(const data::TextBlock& block, const data::Vocabularies& vocab,
                         Segmenter* segmenter) {
  BlockSource source;
  source.words = data::text_words(block.text);
  if (source.words.empty()) return source;
  source.lead = block.text.substr(0, source.words.front().begin);
  source.trail = block.text.substr(source.words.back().end);
  const std::vector<size_t> breaks = item_breaks(block);
  size_t previous_end = 0;
  for (const auto& word : source.words) {
    if (!source.text.empty()) {
      // A line break between two items: a sentence end to the segmenter.
      const bool item_break = std::any_of(breaks.begin(), breaks.end(), [&](size_t at) {
        return previous_end <= at && at <= word.begin;
      });
      source.text += item_break ? '\n' : ' ';
    }
    source.text.append(block.text, word.begin, word.size());
    previous_end = word.end;
  }
  source.segmented = segment_text(vocab, source.text, segmenter);
  if (!breaks.empty()) keep_item_spacing(block.text, source);
  return source;
}

/// True when a token's piece holds a letter or digit (any non-ASCII byte counts as one): the
/// tokens that words are aligned by. Punctuation draws attention from target tokens of every
/// kind (a final period most of all), so it would stretch a tag over the whole sentence.
bool is_wordlike(const data::Tokenizer& tokenizer, int64_t id) {
  std::string piece = tokenizer.piece(id);
  // SentencePiece's word mark ▁, and the punctuation outside ASCII that Spanish text uses.
  for (const std::string_view mark : {"\u2581", "\u00BF", "\u00A1", "\u00AB", "\u00BB", "\u2026",
                                      "\u201C", "\u201D", "\u2018", "\u2019", "\u2013", "\u2014"}) {
    for (size_t at; (at = piece.find(mark)) != std::string::npos;) piece.erase(at, mark.size());
  }
  return std::any_of(piece.begin(), piece.end(), [](char c) {
    return std::isalnum(static_cast<unsigned char>(c)) || static_cast<unsigned char>(c) >= 0x80;
  });
}

/// The cross attention of `best` averaged over layers and heads, [len, S] (row j: target token
/// j), with 0 where the source or the target token is not word-like (is_wordlike); undefined
/// when no attention was recorded.
torch::Tensor wordlike_attention(const TrainedModel& trained, const model::Hypothesis& best,
                                 const std::vector<int64_t>& source) {
  if (best.attention.empty()) return {};
  auto mean = torch::stack(best.attention, 0).to(torch::kFloat).mean(std::vector<int64_t>{0, 1});
  // mean: [len,S]
  std::vector<float> columns(static_cast<size_t>(mean.size(1)), 0.0f);
  for (size_t s = 0; s < columns.size() && s < source.size(); ++s) {
    columns[s] = is_wordlike(trained.vocab->src(), source[s]) ? 1.0f : 0.0f;
  }
  std::vector<float> rows(static_cast<size_t>(mean.size(0)), 0.0f);
  for (size_t j = 0; j < rows.size() && j < best.tokens.size(); ++j) {
    rows[j] = is_wordlike(trained.vocab->tgt(), best.tokens[j]) ? 1.0f : 0.0f;
  }
  const auto column_mask = torch::from_blob(columns.data(), {mean.size(1)}, torch::kFloat);
  const auto row_mask = torch::from_blob(rows.data(), {mean.size(0), 1}, torch::kFloat);
  return (mean * column_mask * row_mask).contiguous();
}

/// Where the word of each of a piece's `n_tokens` source tokens starts in the piece's text:
/// each word encoded alone gives its tokens (SentencePiece and the words tokenizer split at
/// white space first); when the counts disagree (a cut piece), tokens are spread over the
/// words evenly.
std::vector<size_t> source_token_word_starts(const data::Tokenizer& tokenizer,
                                             std::string_view piece, size_t n_tokens) {
  const auto words = data::text_words(piece);
  std::vector<size_t> of_token;
  for (const auto& word : words) {
    const auto ids = tokenizer.encode(std::string(piece.substr(word.begin, word.size())));
    of_token.insert(of_token.end(), ids.size(), word.begin);
  }
  if (of_token.size() == n_tokens || words.empty()) return of_token;
  of_token.assign(n_tokens, 0);
  for (size_t i = 0; i < n_tokens; ++i) of_token[i] = words[i * words.size() / n_tokens].begin;
  return of_token;
}

/// The byte where each target token's text starts in the decoded translation (decoding
/// growing prefixes: both tokenizers decode a prefix to a prefix of the whole).
std::vector<size_t> target_token_starts(const data::Vocabularies& vocab,
                                        const std::vector<int64_t>& tokens) {
  std::vector<size_t> starts;
  std::vector<int64_t> prefix;
  for (int64_t id : tokens) {
    starts.push_back(vocab.decode_target(prefix).size());
    prefix.push_back(id);
  }
  return starts;
}

/// The lexicon's form of each of `words` (spans of `text`).
std::vector<std::string> lexicon_words(std::string_view text,
                                       const std::vector<data::TextSpan>& words, bool target) {
  std::vector<std::string> out;
  for (const auto& word : words)
    out.push_back(data::lexicon_word(text.substr(word.begin, word.size()), target));
  return out;
}

/// weights[t][w] for target word t of `text` (the block's translation, pieces at `placed`
/// after the block's lead) and the block's source word w: the attention of t's tokens (their
/// mean) on w's (their sum), weighed with the model's word lexicon where it has one.
std::vector<std::vector<float>> word_weights(
    const TrainedModel& trained, const data::WordLexicon* lexicon, const BlockSource& source,
    const std::vector<const model::Hypothesis*>& best, const std::string& text,
    const std::vector<data::TextSpan>& target_words, const std::vector<data::TextSpan>& placed) {
  const SegmentedText& segmented = source.segmented;
  const auto model_words = data::text_words(source.text);
  const size_t n_target = target_words.size(), n_source = model_words.size();
  std::vector<std::vector<float>> weights(n_target, std::vector<float>(n_source, 0.0f));
  std::vector<int> tokens_of_word(n_target, 0);
  for (size_t k = 0; k < best.size(); ++k) {
    if (best[k] == nullptr) continue;
    const auto attention = wordlike_attention(trained, *best[k], segmented.sources[k]);
    if (!attention.defined()) continue;
    // The block's word of each source token: the piece's text has its addresses and emoji
    // left out (data/verbatim_spans.h), so its offsets are mapped back to the block's.
    std::vector<size_t> token_words;
    for (size_t at : source_token_word_starts(trained.vocab->src(), segmented.texts[k],
                                              segmented.sources[k].size())) {
      token_words.push_back(word_at(
          model_words, segmented.spans[k].begin + data::original_offset(segmented.kept[k], at)));
    }
    // And where each target token lies once they are put back into the translation.
    const auto inserted =
        data::verbatim_insertions(trained.vocab->decode_target(best[k]->tokens), segmented.kept[k]);
    const auto starts = target_token_starts(*trained.vocab, best[k]->tokens);
    const auto columns = std::min<size_t>(token_words.size(), attention.size(1));
    for (size_t j = 0; j < starts.size() && j < static_cast<size_t>(attention.size(0)); ++j) {
      const size_t t = word_at(target_words, source.lead.size() + placed[k].begin +
                                                 data::shifted_offset(starts[j], inserted));
      if (t >= n_target) continue;
      const float* row = attention[static_cast<int64_t>(j)].data_ptr<float>();
      if (std::all_of(row, row + columns, [](float w) { return w == 0.0f; })) continue;
      ++tokens_of_word[t];  // a word-like token
      for (size_t s = 0; s < columns; ++s) {
        if (token_words[s] < n_source) weights[t][token_words[s]] += row[s];
      }
    }
  }
  for (size_t t = 0; t < n_target; ++t) {
    for (float& w : weights[t]) w /= static_cast<float>(std::max(1, tokens_of_word[t]));
  }
  if (lexicon == nullptr) return weights;
  return weigh_with_lexicon(std::move(weights), lexicon_words(source.text, model_words, false),
                            lexicon_words(text, target_words, true), *lexicon);
}

/// The words of each piece of `source` and of its translation (`placed` in the block's
/// translation after its lead, whose words are `target_words`).
std::vector<WordAlignment::Piece> piece_words(const BlockSource& source,
                                              const std::vector<data::TextSpan>& placed,
                                              const std::vector<data::TextSpan>& target_words) {
  const auto source_words = data::text_words(source.text);
  auto words_within = [](const std::vector<data::TextSpan>& words, size_t begin, size_t end) {
    const size_t lo = word_at(words, begin);
    size_t hi = lo;
    while (hi < words.size() && words[hi].end <= end) ++hi;
    return std::pair<size_t, size_t>{lo, hi};
  };
  std::vector<WordAlignment::Piece> pieces;
  for (size_t k = 0; k < placed.size(); ++k) {
    const auto& span = source.segmented.spans[k];
    const auto [source_lo, source_hi] = words_within(source_words, span.begin, span.end);
    const size_t at = source.lead.size();
    const auto [target_lo, target_hi] =
        words_within(target_words, at + placed[k].begin, at + placed[k].end);
    pieces.push_back({source_lo, source_hi, target_lo, target_hi});
  }
  return pieces;
}

/// The block translated: its markup with the inline spans placed by attention.
std::string translated_block(const TrainedModel& trained, const data::WordLexicon* lexicon,
                             const data::TextBlock& block, const BlockSource& source,
                             const std::vector<const model::Hypothesis*>& best) {
  std::vector<std::string> translations;
  for (const auto* h : best)
    translations.push_back(h ? trained.vocab->decode_target(h->tokens) : "");
  std::vector<data::TextSpan> placed;
  const std::string joined = join_translations(source.segmented, translations, &placed);
  if (joined.empty()) return data::block_markup(block);
  const std::string text = source.lead + joined + source.trail;
  if (block.spans.empty()) return data::escape_html_text(text);
  WordAlignment alignment;
  alignment.source_words = source.words;
  alignment.target_words = data::text_words(text);
  alignment.links = symmetric_alignment(
      word_weights(trained, lexicon, source, best, text, alignment.target_words, placed));
  alignment.pieces = piece_words(source, placed, alignment.target_words);
  return data::block_markup({text, place_spans(block.spans, alignment, block.text, text)});
}

}  // namespace

HtmlTranslation translate_html(TrainedModel& trained, std::string_view html,
                               model::SearchOptions search, Segmenter* segmenter) {
  const data::HtmlDocument document = data::parse_html(html);
  const data::WordLexicon* lexicon = word_lexicon(trained);
  search.record_attention = true;
  search.n_best = 1;
  HtmlTranslation out;
  std::vector<std::string> blocks;
  size_t next = 0;  // the first block not translated yet
  while (next < document.blocks.size()) {
    // One round: whole blocks, up to kPiecesPerRound pieces (at least one block).
    std::vector<BlockSource> round;
    std::vector<std::vector<int64_t>> sources;
    while (next < document.blocks.size() && (round.empty() || sources.size() < kPiecesPerRound)) {
      round.push_back(block_source(document.blocks[next++], *trained.vocab, segmenter));
      const auto& pieces = round.back().segmented.sources;
      sources.insert(sources.end(), pieces.begin(), pieces.end());
      out.cut += round.back().segmented.cut;
    }
    const auto found =
        translate_sources(trained, sources, search, trained.config.translate.batch_size);
    size_t piece = 0;
    for (size_t b = 0; b < round.size(); ++b) {
      std::vector<const model::Hypothesis*> best;
      for (size_t k = 0; k < round[b].segmented.sources.size(); ++k, ++piece) {
        best.push_back(found[piece].empty() ? nullptr : &found[piece][0]);
        if (best.back()) out.target_tokens += static_cast<int64_t>(best.back()->tokens.size());
      }
      const size_t index = next - round.size() + b;
      blocks.push_back(translated_block(trained, lexicon, document.blocks[index], round[b], best));
    }
    out.pieces += static_cast<int64_t>(sources.size());
  }
  out.html = data::render_html(document, blocks);
  // libxml2 keeps nothing after </html>: the input's last line break comes back.
  if (!html.empty() && html.back() == '\n' && (out.html.empty() || out.html.back() != '\n')) {
    out.html += '\n';
  }
  return out;
}

std::string read_html_input(const std::string& path) {
  if (!path.empty()) return data::read_whole_file(path, "input", kMaxHtmlBytes);
  std::string html;
  char buffer[1 << 16];
  while (std::cin.read(buffer, sizeof buffer) || std::cin.gcount() > 0) {
    html.append(buffer, static_cast<size_t>(std::cin.gcount()));
    if (html.size() > kMaxHtmlBytes) {
      throw std::runtime_error("cannot read input <stdin>: more than the " +
                               std::to_string(kMaxHtmlBytes) + " bytes allowed for one document");
    }
  }
  if (std::cin.bad()) throw std::runtime_error("cannot read input <stdin>: I/O error");
  return html;
}

}  // namespace atento
