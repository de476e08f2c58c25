// Vocabularies: the pair of tokenizers of one model, their files and the sequence rules.

#include "data/tokenizer.h"

#include <filesystem>
#include <stdexcept>

#include "data/sentencepiece.h"
#include "data/words.h"

namespace atento::data {
namespace {

namespace fs = std::filesystem;

std::string in_dir(const std::string& dir, const char* name) {
  return (fs::path(dir) / name).string();
}

// "<dir>/spm.en.model" → "<dir>/spm.en", the prefix SentencePiece's trainer wants.
std::string model_prefix(const std::string& model_path) {
  return model_path.substr(0, model_path.size() - std::string(".model").size());
}

}  // namespace

Vocabularies::Vocabularies(std::shared_ptr<const Tokenizer> src,
                           std::shared_ptr<const Tokenizer> tgt, TokenizerOptions options)
    : src_(std::move(src)), tgt_(std::move(tgt)), options_(options) {
  if (src_ == nullptr || tgt_ == nullptr) {
    throw std::invalid_argument("Vocabularies: source and target tokenizers are required");
  }
  if (tgt_->bos_id() < 0 || tgt_->eos_id() < 0) {
    throw std::invalid_argument("Vocabularies: the target tokenizer has no bos/eos ids");
  }
}

std::vector<int64_t> Vocabularies::cut_source(std::vector<int64_t> ids, bool* truncated) const {
  const bool cut = options_.src_len > 0 && static_cast<int64_t>(ids.size()) > options_.src_len;
  if (cut) ids.resize(static_cast<size_t>(options_.src_len));
  if (truncated != nullptr) *truncated = cut;
  return ids;
}

std::vector<int64_t> Vocabularies::frame_target(const std::vector<int64_t>& body) const {
  std::vector<int64_t> ids;
  ids.reserve(body.size() + 2);
  ids.push_back(tgt_->bos_id());
  ids.insert(ids.end(), body.begin(), body.end());
  ids.push_back(tgt_->eos_id());
  if (options_.tgt_len > 0 && static_cast<int64_t>(ids.size()) > options_.tgt_len) {
    ids.resize(static_cast<size_t>(options_.tgt_len));
  }
  return ids;
}

std::vector<int64_t> Vocabularies::encode_source(const std::string& text, bool* truncated) const {
  return cut_source(src_->encode(text), truncated);
}

std::vector<int64_t> Vocabularies::encode_target(const std::string& text) const {
  return frame_target(tgt_->encode(text));
}

std::vector<int64_t> Vocabularies::sample_source(const std::string& text, double alpha) const {
  return cut_source(src_->sample(text, alpha), nullptr);
}

std::vector<int64_t> Vocabularies::sample_target(const std::string& text, double alpha) const {
  return frame_target(tgt_->sample(text, alpha));
}

std::string Vocabularies::decode_target(const std::vector<int64_t>& ids) const {
  // A model's output layer may be larger than its word vocabulary (the corpus held fewer words
  // than tokenizer.vocab_size): the rows past it were never a target, but an untrained model
  // can still pick one. They read as [UNK] rather than failing the whole translation.
  std::vector<int64_t> known(ids);
  for (int64_t& id : known) {
    if (id < 0 || id >= tgt_->vocab_size()) id = tgt_->unk_id();
  }
  return tgt_->decode(known);
}

Vocabularies train_vocabularies(const std::vector<Pair>& train, const TokenizerOptions& options,
                                const std::string& dir) {
  if (train.empty()) {
    throw std::invalid_argument("cannot train tokenizers for " + dir + ": no training pairs");
  }
  std::error_code ec;
  fs::create_directories(dir, ec);
  if (ec) throw std::runtime_error("cannot create directory " + dir + ": " + ec.message());

  std::vector<std::string> english, spanish;
  english.reserve(train.size());
  spanish.reserve(train.size());
  for (const Pair& pair : train) {
    english.push_back(pair.src);
    spanish.push_back(pair.tgt);
  }
  const std::vector<std::string> files = tokenizer_files(dir, options);

  if (options.kind == TokenizerKind::kWords) {
    const auto src = std::make_shared<const WordsTokenizer>(
        build_word_vocabulary(english, false, options.vocab_size), false);
    const auto tgt = std::make_shared<const WordsTokenizer>(
        build_word_vocabulary(spanish, true, options.vocab_size), true);
    src->save(files[0]);
    tgt->save(files[1]);
    return Vocabularies(src, tgt, options);
  }
  if (options.shared) {
    english.insert(english.end(), std::make_move_iterator(spanish.begin()),
                   std::make_move_iterator(spanish.end()));
    SentencePieceTokenizer::train(english, model_prefix(files[0]), options);
    return load_vocabularies(dir, options);
  }
  SentencePieceTokenizer::train(english, model_prefix(files[0]), options);
  SentencePieceTokenizer::train(spanish, model_prefix(files[1]), options);
  return load_vocabularies(dir, options);
}

Vocabularies load_vocabularies(const std::string& dir, const TokenizerOptions& options) {
  const std::vector<std::string> files = tokenizer_files(dir, options);
  // One statement per file: argument evaluation order is unspecified, and the English file
  // should be the one named when both are missing.
  if (options.kind == TokenizerKind::kWords) {
    auto src = WordsTokenizer::load(files[0], false);
    auto tgt = WordsTokenizer::load(files[1], true);
    return Vocabularies(std::move(src), std::move(tgt), options);
  }
  if (options.shared) {
    const auto both = SentencePieceTokenizer::load(files[0]);
    return Vocabularies(both, both, options);
  }
  auto src = SentencePieceTokenizer::load(files[0]);
  auto tgt = SentencePieceTokenizer::load(files[1]);
  return Vocabularies(std::move(src), std::move(tgt), options);
}

std::vector<std::string> tokenizer_files(const std::string& dir, const TokenizerOptions& options) {
  if (options.kind == TokenizerKind::kWords) {
    return {in_dir(dir, "vocab.en.txt"), in_dir(dir, "vocab.es.txt")};
  }
  if (options.shared) return {in_dir(dir, "spm.shared.model")};
  return {in_dir(dir, "spm.en.model"), in_dir(dir, "spm.es.model")};
}

bool vocabularies_exist(const std::string& dir, const TokenizerOptions& options) {
  std::error_code ec;
  for (const std::string& file : tokenizer_files(dir, options)) {
    if (!fs::is_regular_file(file, ec)) return false;
  }
  return true;
}

}  // namespace atento::data
