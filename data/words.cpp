// The book's word-level vectorizer.

#include "data/words.h"

#include <algorithm>
#include <stdexcept>
#include <string_view>

#include "data/punctuation.h"
#include "data/text_io.h"
#include "data/utf8.h"

namespace atento::data {
namespace {

bool is_ascii_space(uint32_t c) {
  return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

// Python's string.punctuation, which Keras' default standardisation strips (the apostrophe
// included, so "Tom's" becomes "toms").
bool is_ascii_punctuation(uint32_t c) {
  return (c >= 0x21 && c <= 0x2F) || (c >= 0x3A && c <= 0x40) || (c >= 0x5B && c <= 0x60) ||
         (c >= 0x7B && c <= 0x7E);
}

// The book strips string.punctuation + "¿" from Spanish but keeps "[" and "]" so that
// "[start]"/"[end]" survive; "¡" is stripped too, like its mirror "¿".
bool is_stripped(uint32_t c, bool target) {
  if (target) {
    if (c == '[' || c == ']') return false;
    if (c == 0xBF || c == 0xA1) return true;  // ¿ ¡
  }
  return is_ascii_punctuation(c);
}

// Simple (one-to-one) lower-casing of the capitals that occur in European text: ASCII,
// Latin-1 (Á É Í Ñ Ó Ú Ü …), Latin Extended-A, Greek and Cyrillic. Keras lower-cases with
// Unicode rules; outside these blocks the difference cannot matter for this corpus.
uint32_t to_lower(uint32_t c) {
  if (c < 0x80) return (c >= 'A' && c <= 'Z') ? c + 0x20 : c;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 0x20;
  if (c >= 0x100 && c <= 0x17F) {
    if (c == 0x130) return 'i';
    if (c == 0x178) return 0xFF;
    const bool even_pairs = (c < 0x138) || (c >= 0x14A && c < 0x178);
    const bool odd_pairs = (c >= 0x139 && c < 0x149) || (c >= 0x179 && c < 0x17F);
    if (even_pairs && c % 2 == 0) return c + 1;
    if (odd_pairs && c % 2 == 1) return c + 1;
    return c;
  }
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 0x20;
  if (c >= 0x410 && c <= 0x42F) return c + 0x20;
  if (c >= 0x400 && c <= 0x40F) return c + 0x50;
  return c;
}

// Decodes one code point at `i` (advancing it); an ill-formed byte is returned tagged so that
// text that slipped past validation still round-trips byte for byte.
constexpr uint32_t kRawByte = 0x80000000u;

uint32_t next_code_point(std::string_view text, size_t& i) {
  const CodePoint cp = decode_utf8(text, i);
  i += cp.length;
  return cp.valid ? cp.value : kRawByte | cp.value;
}

void append_code_point(std::string& out, uint32_t c) {
  if (c & kRawByte) {
    out.push_back(static_cast<char>(c & 0xFF));
  } else {
    append_utf8(out, c);
  }
}

}  // namespace

std::vector<std::string> book_standardize(const std::string& text, bool target) {
  std::vector<std::string> words;
  std::string word;
  for (size_t i = 0; i < text.size();) {
    const uint32_t c = to_lower(plain_punctuation(next_code_point(text, i)));
    if (is_ascii_space(c)) {
      if (!word.empty()) words.push_back(std::move(word));
      word.clear();
    } else if (!is_stripped(c, target)) {
      append_code_point(word, c);
    }
  }
  if (!word.empty()) words.push_back(std::move(word));
  return words;
}

std::vector<std::string> build_word_vocabulary(const std::vector<std::string>& texts, bool target,
                                               int64_t vocab_size) {
  const int64_t reserved = target ? 4 : 2;
  if (vocab_size < reserved) {
    throw std::invalid_argument(
        "tokenizer.vocab_size must be at least " + std::to_string(reserved) +
        " for the words tokenizer (" +
        std::string(target ? "\"\", [UNK], [start], [end]" : "\"\", [UNK]") + "), got " +
        std::to_string(vocab_size));
  }
  std::vector<std::string> words = {kWordsPad, kWordsUnk};
  if (target) {
    words.emplace_back(kWordsStart);
    words.emplace_back(kWordsEnd);
  }
  std::unordered_map<std::string, int64_t> counts;
  for (const std::string& text : texts) {
    for (std::string& word : book_standardize(text, target)) ++counts[std::move(word)];
  }
  for (const std::string& word : words) counts.erase(word);
  std::vector<std::pair<std::string, int64_t>> ranked(counts.begin(), counts.end());
  std::sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) {
    return a.second != b.second ? a.second > b.second : a.first > b.first;
  });
  const size_t room = static_cast<size_t>(vocab_size) - words.size();
  for (size_t i = 0; i < ranked.size() && i < room; ++i) words.push_back(ranked[i].first);
  return words;
}

namespace {

// Why `words` is not a usable vocabulary ("" when it is); *index names the offending id.
std::string vocabulary_problem(const std::vector<std::string>& words, bool target, size_t* index) {
  *index = 0;
  if (words.empty() || words[0] != kWordsPad) return "id 0 must be the empty word";
  *index = 1;
  if (words.size() < 2 || words[1] != kWordsUnk) return "id 1 must be [UNK]";
  std::unordered_map<std::string_view, size_t> seen;
  for (size_t i = 1; i < words.size(); ++i) {
    *index = i;
    const std::string& word = words[i];
    if (word.empty() || word.find_first_of(" \t\n\r\v\f") != std::string::npos) {
      return "empty word or word with whitespace";
    }
    const auto [previous, inserted] = seen.emplace(word, i);
    if (!inserted) {
      return "\"" + word + "\" repeats id " + std::to_string(previous->second);
    }
  }
  *index = words.size();
  if (target && (seen.count(kWordsStart) == 0 || seen.count(kWordsEnd) == 0)) {
    return "a target vocabulary must hold [start] and [end]";
  }
  return {};
}

}  // namespace

WordsTokenizer::WordsTokenizer(std::vector<std::string> words, bool target)
    : words_(std::move(words)), target_(target) {
  size_t index = 0;
  const std::string problem = vocabulary_problem(words_, target_, &index);
  if (!problem.empty()) {
    throw std::invalid_argument("word vocabulary, id " + std::to_string(index) + ": " + problem);
  }
  ids_.reserve(words_.size());
  for (size_t i = 0; i < words_.size(); ++i) ids_.emplace(words_[i], static_cast<int64_t>(i));
  if (target_) {
    bos_ = ids_.at(kWordsStart);
    eos_ = ids_.at(kWordsEnd);
  }
}

std::shared_ptr<const WordsTokenizer> WordsTokenizer::load(const std::string& path, bool target) {
  const std::string content = read_whole_file(path, "vocabulary", kMaxVocabularyFileBytes);
  std::vector<std::string> words;
  for (size_t start = 0; start < content.size();) {
    size_t end = content.find('\n', start);
    if (end == std::string::npos) end = content.size();
    std::string word = content.substr(start, end - start);
    if (!word.empty() && word.back() == '\r') word.pop_back();
    words.push_back(std::move(word));
    start = end + 1;
  }
  size_t index = 0;
  const std::string problem = vocabulary_problem(words, target, &index);
  if (!problem.empty()) {
    // Line n holds id n - 1.
    throw std::runtime_error("invalid vocabulary " + path + ":" + std::to_string(index + 1) + ": " +
                             problem);
  }
  return std::make_shared<const WordsTokenizer>(std::move(words), target);
}

void WordsTokenizer::save(const std::string& path) const {
  std::string content;
  for (const std::string& word : words_) content.append(word).append(1, '\n');
  write_file_atomically(path, content);
}

std::vector<int64_t> WordsTokenizer::encode(const std::string& text) const {
  std::vector<int64_t> ids;
  for (const std::string& word : book_standardize(text, target_)) {
    const auto found = ids_.find(word);
    ids.push_back(found == ids_.end() ? unk_id() : found->second);
  }
  return ids;
}

std::string WordsTokenizer::decode(const std::vector<int64_t>& ids) const {
  std::string text;
  for (const int64_t id : ids) {
    if (id == pad_id() || id == bos_ || id == eos_) continue;
    if (!text.empty()) text.push_back(' ');
    text += piece(id);
  }
  return text;
}

std::string WordsTokenizer::piece(int64_t id) const {
  if (id < 0 || id >= vocab_size()) {
    throw std::invalid_argument("word id " + std::to_string(id) + " out of range [0, " +
                                std::to_string(vocab_size()) + ")");
  }
  return words_[static_cast<size_t>(id)];
}

}  // namespace atento::data
