#include "app/common/config.h"

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdint>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>
#include <utility>

#include "data/utf8.h"

namespace atento {
namespace {

using nlohmann::json;

/// A JSON value as it appears in an error message; bytes that are not UTF-8 (from a --set
/// override) are shown as U+FFFD instead of making the message itself throw.
std::string shown(const json& value) {
  return value.dump(-1, ' ', false, json::error_handler_t::replace);
}

template <class E>
using EnumNames = std::vector<std::pair<const char*, E>>;

/// Reads one section of a JSON document into a typed struct. Every field is visited once by
/// name; keys the visit never asked for are reported as unknown.
class Reader {
 public:
  /// `overridden` holds the "section.key" names that came from --set: errors name that source.
  Reader(const json& section, std::string section_name, std::string source,
         const std::set<std::string>& overridden)
      : section_(section),
        name_(std::move(section_name)),
        source_(std::move(source)),
        overridden_(overridden) {
    if (!section_.is_object()) fail("", "expected an object");
  }

  void operator()(const char* key, std::string& field) {
    if (const json* v = find(key)) {
      if (!v->is_string()) fail(key, "expected a string, got " + shown(*v));
      const auto& text = v->get_ref<const std::string&>();
      if (!data::is_valid_utf8(text)) fail(key, "is not valid UTF-8: " + shown(*v));
      field = text;
    }
  }
  void operator()(const char* key, bool& field) {
    if (const json* v = find(key)) {
      if (!v->is_boolean()) fail(key, "expected true or false, got " + shown(*v));
      field = v->get<bool>();
    }
  }
  void operator()(const char* key, int64_t& field) {
    if (const json* v = find(key)) {
      const bool fits =
          v->is_number_integer() && !(v->is_number_unsigned() && v->get<uint64_t>() > INT64_MAX);
      if (!fits) fail(key, "expected an integer in 64 bits, got " + shown(*v));
      field = v->get<int64_t>();
    }
  }
  void operator()(const char* key, uint64_t& field) {
    if (const json* v = find(key)) {
      if (!v->is_number_unsigned()) fail(key, "expected a non-negative integer, got " + shown(*v));
      field = v->get<uint64_t>();
    }
  }
  void operator()(const char* key, std::vector<int64_t>& field) {
    if (const json* v = find(key)) {
      if (!v->is_array()) fail(key, "expected a list of integers, got " + shown(*v));
      field.clear();
      for (const auto& item : *v) {
        if (!item.is_number_integer()) fail(key, "expected a list of integers, got " + shown(*v));
        field.push_back(item.get<int64_t>());
      }
    }
  }
  void operator()(const char* key, double& field) {
    if (const json* v = find(key)) {
      if (!v->is_number()) fail(key, "expected a number, got " + shown(*v));
      field = v->get<double>();
    }
  }
  template <class E>
  void operator()(const char* key, E& field, const EnumNames<E>& names) {
    if (const json* v = find(key)) {
      std::string choices;
      for (const auto& [text, value] : names) {
        if (v->is_string() && v->get<std::string>() == text) {
          field = value;
          return;
        }
        choices += (choices.empty() ? "" : " | ") + std::string(text);
      }
      fail(key, "expected one of " + choices + ", got " + shown(*v));
    }
  }

  /// Throws for the first key that no field claimed.
  void reject_unknown() const {
    for (const auto& item : section_.items()) {
      if (!seen_.count(item.key())) fail(item.key(), "unknown key");
    }
  }

 private:
  const json* find(const char* key) {
    seen_.insert(key);
    auto it = section_.find(key);
    return it == section_.end() ? nullptr : &*it;
  }
  [[noreturn]] void fail(const std::string& key, const std::string& what) const {
    std::string where = key.empty() ? name_ : name_ + "." + key;
    throw ConfigError((overridden_.count(where) ? "--set" : source_) + ": " + where + ": " + what);
  }

  const json& section_;
  std::string name_, source_;
  const std::set<std::string>& overridden_;
  std::set<std::string> seen_;
};

/// Writes one struct into a JSON object, visiting the same fields as Reader.
class Writer {
 public:
  explicit Writer(json& out) : out_(out) {}
  template <class T>
  void operator()(const char* key, const T& field) {
    out_[key] = field;
  }
  template <class E>
  void operator()(const char* key, const E& field, const EnumNames<E>& names) {
    for (const auto& [text, value] : names) {
      if (value == field) out_[key] = text;
    }
  }

 private:
  json& out_;
};

const EnumNames<data::TokenizerKind> kTokenizerKinds = {
    {"sentencepiece", data::TokenizerKind::kSentencePiece}, {"words", data::TokenizerKind::kWords}};
const EnumNames<data::SubwordModel> kSubwordModels = {{"unigram", data::SubwordModel::kUnigram},
                                                      {"bpe", data::SubwordModel::kBpe}};
const EnumNames<model::Positions> kPositions = {{"learned", model::Positions::kLearned},
                                                {"none", model::Positions::kNone}};
const EnumNames<model::Norm> kNorms = {{"post", model::Norm::kPost}, {"pre", model::Norm::kPre}};
const EnumNames<OptimizerKind> kOptimizers = {{"adam", OptimizerKind::kAdam},
                                              {"adamw", OptimizerKind::kAdamW},
                                              {"rmsprop", OptimizerKind::kRmsprop}};
const EnumNames<LrSchedule> kSchedules = {{"constant", LrSchedule::kConstant},
                                          {"inverse_sqrt", LrSchedule::kInverseSqrt},
                                          {"linear", LrSchedule::kLinear}};
const EnumNames<Backend> kBackends = {
    {"auto", Backend::kAuto}, {"gloo", Backend::kGloo}, {"nccl", Backend::kNccl}};
const EnumNames<Precision> kPrecisions = {{"fp32", Precision::kFp32},
                                          {"bf16", Precision::kBf16},
                                          {"int8", Precision::kInt8},
                                          {"auto", Precision::kAuto}};
const EnumNames<BestMetric> kBestMetrics = {{"next_word_accuracy", BestMetric::kAccuracy},
                                            {"loss", BestMetric::kLoss},
                                            {"bleu", BestMetric::kBleu}};

// The single list of fields per section: both reading and writing go through these.
template <class V, class C>
void visit(V& v, C& o, const data::CorpusOptions*) {
  v("corpus", o.corpus);
  v("train_file", o.train_file);
  v("valid_file", o.valid_file);
  v("test_file", o.test_file);
  v("valid_fraction", o.valid_fraction);
  v("test_fraction", o.test_fraction);
  v("seed", o.seed);
  v("strict", o.strict);
  v("max_chars", o.max_chars);
  v("source_lang", o.source_lang);
  v("target_lang", o.target_lang);
  v("replay_corpus", o.replay_corpus);
  v("replay_fraction", o.replay_fraction);
}
template <class V, class C>
void visit(V& v, C& o, const data::TokenizerOptions*) {
  v("kind", o.kind, kTokenizerKinds);
  v("vocab_size", o.vocab_size);
  v("subword_model", o.subword_model, kSubwordModels);
  v("shared", o.shared);
  v("byte_fallback", o.byte_fallback);
  v("sample_alpha", o.sample_alpha);
  v("character_coverage", o.character_coverage);
  v("verbose", o.verbose);
  v("src_len", o.src_len);
  v("tgt_len", o.tgt_len);
}
template <class V, class C>
void visit(V& v, C& o, const model::ModelOptions*) {
  v("src_vocab", o.src_vocab);
  v("tgt_vocab", o.tgt_vocab);
  v("d_model", o.d_model);
  v("n_heads", o.n_heads);
  v("head_dim", o.head_dim);
  v("d_ff", o.d_ff);
  v("encoder_layers", o.encoder_layers);
  v("decoder_layers", o.decoder_layers);
  v("dropout", o.dropout);
  v("output_dropout", o.output_dropout);
  v("positions", o.positions, kPositions);
  v("max_len", o.max_len);
  v("tie_embeddings", o.tie_embeddings);
  v("share_embeddings", o.share_embeddings);
  v("adaptive_cutoffs", o.adaptive_cutoffs);
  v("adaptive_div", o.adaptive_div);
  v("norm", o.norm, kNorms);
}
template <class V, class C>
void visit(V& v, C& o, const TrainOptions*) {
  v("optimizer", o.optimizer, kOptimizers);
  v("lr", o.lr);
  v("beta1", o.beta1);
  v("beta2", o.beta2);
  v("rho", o.rho);
  v("eps", o.eps);
  v("weight_decay", o.weight_decay);
  v("decay_vectors", o.decay_vectors);
  v("schedule", o.schedule, kSchedules);
  v("warmup_steps", o.warmup_steps);
  v("label_smoothing", o.label_smoothing);
  v("clip_norm", o.clip_norm);
  v("ema_decay", o.ema_decay);
  v("batch_size", o.batch_size);
  v("batch_tokens", o.batch_tokens);
  v("bucket_by_length", o.bucket_by_length);
  v("accumulate", o.accumulate);
  v("max_epochs", o.max_epochs);
  v("max_steps", o.max_steps);
  v("time_budget_minutes", o.time_budget_minutes);
  v("eval_every_steps", o.eval_every_steps);
  v("valid_subset", o.valid_subset);
  v("best_metric", o.best_metric, kBestMetrics);
  v("bleu_sentences", o.bleu_sentences);
  v("patience", o.patience);
  v("keep_checkpoints", o.keep_checkpoints);
  v("log_every_steps", o.log_every_steps);
  v("threads", o.threads);
  v("seed", o.seed);
  v("device", o.device);
  v("precision", o.precision, kPrecisions);
  v("init_from", o.init_from);
  v("cuda_graphs", o.cuda_graphs);
}
template <class V, class C>
void visit(V& v, C& o, const TranslateOptions*) {
  v("beam", o.beam);
  v("length_penalty", o.length_penalty);
  v("n_best", o.n_best);
  v("max_len_ratio", o.max_len_ratio);
  v("max_len_extra", o.max_len_extra);
  v("batch_size", o.batch_size);
  v("use_cache", o.use_cache);
  v("split_sentences", o.split_sentences);
  v("long_sentence_tokens", o.long_sentence_tokens);
  v("threads", o.threads);
  v("device", o.device);
  v("precision", o.precision, kPrecisions);
  v("cuda_graphs", o.cuda_graphs);
}

template <class V, class C>
void visit(V& v, C& o, const FilterOptions*) {
  v("pretrained", o.pretrained);
  v("random_init", o.random_init);
  v("noise_fraction", o.noise_fraction);
  v("threshold", o.threshold);
  v("batch_size", o.batch_size);
}

template <class V, class C>
void visit(V& v, C& o, const DistributedOptions*) {
  v("backend", o.backend, kBackends);
  v("timeout_s", o.timeout_s);
}

/// Calls f(section name, section struct) for every section of the configuration.
template <class C, class F>
void for_each_section(C& config, F&& f) {
  f("data", config.data);
  f("tokenizer", config.tokenizer);
  f("model", config.model);
  f("train", config.train);
  f("translate", config.translate);
  f("filter", config.filter);
  f("distributed", config.distributed);
}

/// A model directory's config.json written by another layout version is refused by name.
void check_format_version(const json& value, const std::string& source) {
  if (!value.is_number_integer() || value.get<int64_t>() != kModelFormatVersion) {
    throw ConfigError(source + ": " + kFormatVersionKey + " is " + shown(value) +
                      ", but this Atento reads format " + std::to_string(kModelFormatVersion) +
                      " (a model directory written by another version: retrain it, or use the "
                      "Atento that wrote it)");
  }
}

std::tuple<std::string, std::string, json> parse_override(const std::string& text) {
  auto eq = text.find('=');
  auto dot = text.find('.');
  if (eq == std::string::npos || dot == std::string::npos || dot > eq || dot == 0 ||
      dot + 1 == eq) {
    throw ConfigError("--set " + text + ": expected section.key=value");
  }
  std::string raw = text.substr(eq + 1);
  json value = json::parse(raw, nullptr, /*allow_exceptions=*/false);
  if (value.is_discarded()) value = raw;
  return {text.substr(0, dot), text.substr(dot + 1, eq - dot - 1), value};
}

}  // namespace

Config config_from_json(const json& doc, const std::string& source,
                        const std::vector<std::string>& overrides) {
  if (!doc.is_object()) throw ConfigError(source + ": expected a JSON object at the top level");
  json merged = doc;
  // Model directories written before the device became a run-time choice hold model.device:
  // accepted and ignored (train.device / translate.device choose the device now).
  if (merged.contains("model") && merged["model"].is_object()) merged["model"].erase("device");
  std::set<std::string> sections;
  Config config;
  for_each_section(config, [&](const char* name, auto&) { sections.insert(name); });
  for (const auto& [name, value] : doc.items()) {
    if (name == kFormatVersionKey) {
      check_format_version(value, source);
    } else if (!sections.count(name)) {
      throw ConfigError(source + ": " + name + ": unknown section");
    }
  }
  // Overrides are applied to the document, then read with the same typed reader, so a
  // wrong type in --set is reported like one in the file (naming --set as the source).
  std::set<std::string> overridden;
  for (const auto& text : overrides) {
    auto [section, key, value] = parse_override(text);
    if (!sections.count(section)) throw ConfigError("--set " + text + ": unknown section");
    merged[section][key] = value;
    overridden.insert(section + "." + key);
  }
  for_each_section(config, [&](const char* name, auto& options) {
    auto it = merged.find(name);
    if (it == merged.end()) return;
    Reader reader(*it, name, source, overridden);
    using Options = std::remove_reference_t<decltype(options)>;
    visit(reader, options, static_cast<const Options*>(nullptr));
    reader.reject_unknown();
  });
  validate(config);
  return config;
}

Config load_config(const std::string& path, const std::vector<std::string>& overrides) {
  std::ifstream in(path);
  if (!in) throw ConfigError(path + ": cannot open configuration file");
  std::error_code ec;
  const auto size = std::filesystem::file_size(path, ec);
  if (!ec && size > kMaxConfigBytes) {
    throw ConfigError(path + ": " + std::to_string(size) + " bytes, more than the " +
                      std::to_string(kMaxConfigBytes) + " a configuration file may hold");
  }
  json doc;
  try {
    doc = json::parse(in, nullptr, /*allow_exceptions=*/true, /*ignore_comments=*/true);
  } catch (const json::exception& e) {  // parse_error, and out_of_range for 1e400
    throw ConfigError(path + ": invalid JSON: " + e.what());
  }
  return config_from_json(doc, path, overrides);
}

json config_to_json(const Config& config) {
  json out = json::object();
  out[kFormatVersionKey] = kModelFormatVersion;
  for_each_section(config, [&](const char* name, const auto& options) {
    json section = json::object();
    Writer writer(section);
    using Options = std::remove_cv_t<std::remove_reference_t<decltype(options)>>;
    visit(writer, options, static_cast<const Options*>(nullptr));
    out[name] = section;
  });
  return out;
}

std::vector<std::string> precision_names() {
  std::vector<std::string> names;
  for (const auto& [text, value] : kPrecisions) names.emplace_back(text);
  return names;
}

bool is_device_name(const std::string& name) {
  if (name == "cpu" || name == "cuda") return true;
  const std::string prefix = "cuda:";
  if (name.size() <= prefix.size() || name.size() > prefix.size() + 3) return false;
  if (name.compare(0, prefix.size(), prefix) != 0) return false;
  return std::all_of(name.begin() + prefix.size(), name.end(),
                     [](unsigned char c) { return std::isdigit(c) != 0; });
}

namespace {

void check(bool ok, const std::string& key, const std::string& rule) {
  if (!ok) throw ConfigError("configuration: " + key + ": " + rule);
}

constexpr const char* kLanguageRule =
    "must be a language code: 2 or 3 lower-case letters, optionally -REGION (en, es, pt-BR)";

// "en", "spa", "pt-BR": ISO 639 letters, an optional region or script subtag.
bool is_language_code(const std::string& code) {
  const size_t dash = code.find('-');
  const std::string language = code.substr(0, dash);
  if (language.size() < 2 || language.size() > 3) return false;
  for (char c : language) {
    if (c < 'a' || c > 'z') return false;
  }
  if (dash == std::string::npos) return true;
  const std::string region = code.substr(dash + 1);
  if (region.size() < 2 || region.size() > 8) return false;
  for (char c : region) {
    if (!std::isalnum(static_cast<unsigned char>(c))) return false;
  }
  return true;
}

void validate_data(const data::CorpusOptions& d) {
  check(d.valid_fraction >= 0 && d.valid_fraction < 1, "data.valid_fraction", "must be in [0, 1)");
  check(d.test_fraction >= 0 && d.test_fraction < 1, "data.test_fraction", "must be in [0, 1)");
  check(d.valid_fraction + d.test_fraction < 1, "data.test_fraction",
        "valid_fraction + test_fraction must be below 1");
  check(d.max_chars > 0, "data.max_chars", "must be positive");
  check(is_language_code(d.source_lang), "data.source_lang", kLanguageRule);
  check(is_language_code(d.target_lang), "data.target_lang", kLanguageRule);
  check(d.source_lang != d.target_lang, "data.target_lang", "must differ from data.source_lang");
  check(d.replay_fraction >= 0 && d.replay_fraction < 1, "data.replay_fraction",
        "must be in [0, 1)");
  check(d.replay_fraction == 0 || !d.replay_corpus.empty(), "data.replay_fraction",
        "needs data.replay_corpus");
}

void validate_tokenizer(const data::TokenizerOptions& t) {
  check(t.vocab_size >= data::kMinVocabSize, "tokenizer.vocab_size",
        "must be at least " + std::to_string(data::kMinVocabSize));
  check(t.character_coverage > 0 && t.character_coverage <= 1, "tokenizer.character_coverage",
        "must be in (0, 1]");
  check(t.sample_alpha >= 0, "tokenizer.sample_alpha", "must not be negative");
  check(t.sample_alpha == 0 || t.kind == data::TokenizerKind::kSentencePiece,
        "tokenizer.sample_alpha",
        "needs tokenizer.kind \"sentencepiece\" (words have one "
        "segmentation)");
  check(t.sample_alpha < 1 || t.subword_model != data::SubwordModel::kBpe, "tokenizer.sample_alpha",
        "is BPE-dropout's merge-drop probability: must be below 1");
  check(t.src_len >= 1, "tokenizer.src_len", "must be positive");
  check(t.tgt_len >= 2, "tokenizer.tgt_len", "must be at least 2 ([start] and [end])");
}

// The model's own limits, then the rules that tie it to the tokenizer.
void validate_model(const model::ModelOptions& m, const data::TokenizerOptions& t) {
  for (int64_t cutoff : m.adaptive_cutoffs) {
    check(cutoff < t.vocab_size, "model.adaptive_cutoffs",
          "must lie below tokenizer.vocab_size = " + std::to_string(t.vocab_size) + ", got " +
              std::to_string(cutoff));
  }
  // Until the tokenizers are trained, model.src_vocab/tgt_vocab are placeholders; the trainer
  // then sets them to at least tokenizer.vocab_size (exactly, for SentencePiece).
  model::ModelOptions sized = m;
  sized.src_vocab = std::max(m.src_vocab, t.vocab_size);
  sized.tgt_vocab = std::max(m.tgt_vocab, t.vocab_size);
  try {
    model::validate_options(sized);  // the model's own limits, the ones its constructor applies
  } catch (const std::invalid_argument& e) {
    throw ConfigError(std::string("configuration: ") + e.what());
  }
  check(!m.share_embeddings || (t.kind == data::TokenizerKind::kSentencePiece && t.shared),
        "model.share_embeddings",
        "needs one vocabulary for both languages (tokenizer.kind "
        "\"sentencepiece\" with tokenizer.shared true)");
  check(m.max_len >= t.src_len, "model.max_len",
        "must cover tokenizer.src_len (" + std::to_string(t.src_len) + ")");
  check(m.max_len >= t.tgt_len - 1, "model.max_len",
        "must cover tokenizer.tgt_len - 1 (" + std::to_string(t.tgt_len - 1) + ")");
}

void validate_train(const TrainOptions& r) {
  check(r.lr > 0 && std::isfinite(r.lr), "train.lr", "must be positive");
  check(r.beta1 >= 0 && r.beta1 < 1, "train.beta1", "must be in [0, 1)");
  check(r.beta2 >= 0 && r.beta2 < 1, "train.beta2", "must be in [0, 1)");
  check(r.rho >= 0 && r.rho < 1, "train.rho", "must be in [0, 1)");
  check(r.eps > 0, "train.eps", "must be positive");
  check(r.weight_decay >= 0, "train.weight_decay", "must not be negative");
  check(r.warmup_steps >= 0, "train.warmup_steps", "must not be negative");
  check(r.label_smoothing >= 0 && r.label_smoothing < 1, "train.label_smoothing",
        "must be in [0, 1)");
  check(r.clip_norm >= 0, "train.clip_norm", "must not be negative");
  check(r.ema_decay >= 0 && r.ema_decay < 1, "train.ema_decay", "must be in [0, 1) (0 = off)");
  check(r.batch_size >= 0, "train.batch_size", "must not be negative");
  check(r.batch_size > 0 || r.batch_tokens > 0, "train.batch_tokens",
        "must be positive when train.batch_size is 0");
  check(r.accumulate >= 1, "train.accumulate", "must be at least 1");
  check(r.max_epochs >= 0, "train.max_epochs", "must not be negative");
  check(r.max_steps >= 0, "train.max_steps", "must not be negative");
  check(r.schedule != LrSchedule::kLinear || r.max_steps > r.warmup_steps ||
            r.time_budget_minutes > 0,
        "train.max_steps",
        "must be greater than train.warmup_steps with the linear schedule (it decays to 0 there), "
        "unless train.time_budget_minutes is set (the decay then follows the clock)");
  check(r.time_budget_minutes >= 0, "train.time_budget_minutes", "must not be negative");
  check(r.max_epochs > 0 || r.max_steps > 0 || r.time_budget_minutes > 0, "train.max_epochs",
        "set at least one of max_epochs, max_steps, time_budget_minutes");
  check(r.eval_every_steps >= 0, "train.eval_every_steps", "must not be negative");
  check(r.valid_subset >= 0, "train.valid_subset", "must not be negative");
  check(r.bleu_sentences >= 0, "train.bleu_sentences", "must not be negative (0 = no BLEU)");
  check(r.best_metric != BestMetric::kBleu || r.bleu_sentences > 0, "train.bleu_sentences",
        "must be positive when train.best_metric is bleu");
  check(r.patience >= 0, "train.patience", "must not be negative");
  check(r.keep_checkpoints >= 1, "train.keep_checkpoints", "must be at least 1");
  check(r.log_every_steps >= 1, "train.log_every_steps", "must be positive");
  check(r.threads >= 0, "train.threads", "must not be negative (0 = all cores)");
  check(is_device_name(r.device), "train.device",
        "expected cpu, cuda or cuda:N, got '" + r.device + "'");
  check(r.precision != Precision::kInt8, "train.precision",
        "int8 is for decoding only (translate.precision); train in fp32, bf16 or auto");
}

void validate_translate(const TranslateOptions& s) {
  check(s.beam >= 1, "translate.beam", "must be at least 1");
  check(s.n_best >= 1 && s.n_best <= s.beam, "translate.n_best", "must be in [1, beam]");
  check(s.length_penalty >= 0, "translate.length_penalty", "must not be negative");
  check(s.max_len_ratio > 0, "translate.max_len_ratio", "must be positive");
  check(s.max_len_extra >= 0, "translate.max_len_extra", "must not be negative");
  check(s.batch_size >= 1, "translate.batch_size", "must be positive");
  check(s.long_sentence_tokens >= 0, "translate.long_sentence_tokens",
        "must not be negative (0 = split only what is longer than the source length)");
  check(s.threads >= 0, "translate.threads", "must not be negative (0 = all cores)");
  check(is_device_name(s.device), "translate.device",
        "expected cpu, cuda or cuda:N, got '" + s.device + "'");
  check(s.precision != Precision::kInt8 || s.device == "cpu", "translate.precision",
        "int8 decodes on the CPU only (translate.device is " + s.device + ")");
}

void validate_filter(const FilterOptions& f) {
  check(f.noise_fraction > 0 && f.noise_fraction < 1, "filter.noise_fraction", "must be in (0, 1)");
  check(f.threshold >= 0 && f.threshold <= 1, "filter.threshold", "must be in [0, 1]");
  check(f.batch_size >= 1, "filter.batch_size", "must be positive");
}

}  // namespace

void validate(const Config& c) {
  validate_data(c.data);
  validate_tokenizer(c.tokenizer);
  validate_model(c.model, c.tokenizer);
  validate_train(c.train);
  validate_translate(c.translate);
  validate_filter(c.filter);
  check(c.filter.pretrained.empty() || c.train.best_metric != BestMetric::kBleu,
        "train.best_metric",
        "bleu is for translation models; the pair filter (filter.pretrained) has no BLEU");
  check(c.distributed.timeout_s > 0, "distributed.timeout_s", "must be positive (seconds)");
}

void require_section(const std::vector<std::string>& overrides, const std::string& section) {
  for (const auto& text : overrides) {
    auto [name, key, value] = parse_override(text);
    if (name != section) {
      throw ConfigError("--set " + text + ": only " + section +
                        ".* settings can be changed here; the rest comes from the trained model");
    }
  }
}

}  // namespace atento
