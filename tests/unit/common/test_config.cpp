// Configuration: precedence (defaults ← file ← --set), typed errors naming the key.
#include <gtest/gtest.h>

#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <set>
#include <string>

#include "app/common/config.h"

namespace atento {
namespace {

using nlohmann::json;

std::string write_temp(const std::string& text) {
  static int counter = 0;
  std::string path = ::testing::TempDir() + "atento_config_" + std::to_string(counter++) + ".json";
  std::ofstream(path) << text;
  return path;
}

/// The message of the ConfigError `f` throws; fails the test when it throws nothing.
template <class F>
std::string config_error(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  ADD_FAILURE() << "expected a ConfigError";
  return "";
}

TEST(Config, DefaultsApplyWhenTheFileIsEmpty) {
  auto c = config_from_json(json::object(), "test", {});
  Config defaults;
  EXPECT_EQ(c.model.d_model, defaults.model.d_model);
  EXPECT_EQ(c.train.batch_tokens, defaults.train.batch_tokens);
  EXPECT_EQ(c.tokenizer.kind, data::TokenizerKind::kSentencePiece);
}

TEST(Config, FileOverridesDefaultsAndSetOverridesFile) {
  auto path = write_temp(R"({"model": {"d_model": 64, "n_heads": 2}, "train": {"lr": 0.5}})");
  auto c = load_config(path, {"model.d_model=32", "data.corpus=x.tsv", "train.lr=0.25"});
  EXPECT_EQ(c.model.d_model, 32);  // --set beats the file
  EXPECT_EQ(c.model.n_heads, 2);   // the file beats the default
  EXPECT_DOUBLE_EQ(c.train.lr, 0.25);
  EXPECT_EQ(c.data.corpus, "x.tsv");             // unquoted strings are strings
  EXPECT_EQ(c.model.d_ff, Config{}.model.d_ff);  // untouched keys keep defaults
}

TEST(Config, EveryShippedConfigIsValid) {
  // filter.json names a model directory that exists only after the main job; it still parses.
  int n = 0;
  for (const auto& entry : std::filesystem::directory_iterator(ATENTO_SOURCE_DIR "/configs")) {
    if (entry.path().extension() != ".json") continue;
    ++n;
    EXPECT_NO_THROW(load_config(entry.path().string(), {})) << entry.path();
  }
  EXPECT_GE(n, 8);
}

TEST(Config, LaterSetOverridesEarlierSet) {
  auto c = config_from_json(json::object(), "test", {"model.d_ff=100", "model.d_ff=200"});
  EXPECT_EQ(c.model.d_ff, 200);
}

TEST(Config, EnumsParseFromTheirNames) {
  auto c = config_from_json(json{{"tokenizer", {{"kind", "words"}, {"subword_model", "bpe"}}},
                                 {"model", {{"positions", "none"}, {"norm", "pre"}}},
                                 {"train", {{"optimizer", "rmsprop"}, {"schedule", "constant"}}}},
                            "test", {});
  EXPECT_EQ(c.tokenizer.kind, data::TokenizerKind::kWords);
  EXPECT_EQ(c.tokenizer.subword_model, data::SubwordModel::kBpe);
  EXPECT_EQ(c.model.positions, model::Positions::kNone);
  EXPECT_EQ(c.model.norm, model::Norm::kPre);
  EXPECT_EQ(c.train.optimizer, OptimizerKind::kRmsprop);
  EXPECT_EQ(c.train.schedule, LrSchedule::kConstant);
}

TEST(Config, UnknownKeyIsAnErrorNamingIt) {
  auto path = write_temp(R"({"model": {"d_modle": 64}})");
  auto message = config_error([&] { load_config(path, {}); });
  EXPECT_NE(message.find("model.d_modle"), std::string::npos) << message;
  EXPECT_NE(message.find("unknown key"), std::string::npos) << message;
  EXPECT_NE(message.find(path), std::string::npos) << message;
}

TEST(Config, UnknownSectionIsAnError) {
  auto message = config_error([] { config_from_json(json{{"modle", json::object()}}, "f", {}); });
  EXPECT_NE(message.find("modle"), std::string::npos) << message;
}

TEST(Config, WrongTypeIsAnErrorNamingTheKey) {
  auto message = config_error([] {
    config_from_json(json{{"model", {{"d_model", "big"}}}}, "f.json", {});
  });
  EXPECT_NE(message.find("f.json: model.d_model: expected an integer"), std::string::npos)
      << message;
  message = config_error([] { config_from_json(json{{"data", {{"strict", 1}}}}, "f", {}); });
  EXPECT_NE(message.find("data.strict"), std::string::npos) << message;
  message = config_error([] { config_from_json(json{{"train", {{"lr", "fast"}}}}, "f", {}); });
  EXPECT_NE(message.find("train.lr: expected a number"), std::string::npos) << message;
}

TEST(Config, NumbersBeyondTheirTypeAreErrorsNamingTheFileOrKey) {
  // 1e400 is nlohmann's out_of_range (not a parse_error); 2^64 - 1 does not fit an int64_t.
  auto path = write_temp(R"({"train": {"lr": 1e400}})");
  auto message = config_error([&] { load_config(path, {}); });
  EXPECT_NE(message.find(path + ": invalid JSON"), std::string::npos) << message;
  message = config_error([] {
    config_from_json(json::parse(R"({"model": {"d_model": 18446744073709551615}})"), "f", {});
  });
  EXPECT_NE(message.find("model.d_model: expected an integer in 64 bits"), std::string::npos)
      << message;
}

TEST(Config, WrongTypeInSetNamesSetAsTheSource) {
  auto message = config_error([] { config_from_json(json::object(), "f", {"model.d_model=abc"}); });
  EXPECT_NE(message.find("--set: model.d_model"), std::string::npos) << message;
}

TEST(Config, SetValuesThatAreNotUtf8AreConfigErrorsNamingTheKey) {
  // Found by fuzz_config: the message quoting such a value threw json's type_error instead.
  auto message = config_error([] {
    config_from_json(json::object(), "f",
                     {"train.max_steps=1\xb9\xb9"
                      "0"});
  });
  EXPECT_NE(message.find("--set: train.max_steps: expected an integer"), std::string::npos)
      << message;
  message = config_error([] { config_from_json(json::object(), "f", {"data.corpus=a\xff.tsv"}); });
  EXPECT_NE(message.find("data.corpus: is not valid UTF-8"), std::string::npos) << message;
  message =
      config_error([] { config_from_json(json::object(), "f", {"model.positions=\xc3learned"}); });
  EXPECT_NE(message.find("model.positions: expected one of"), std::string::npos) << message;
}

TEST(Config, BadEnumValueListsTheChoices) {
  auto message = config_error([] {
    config_from_json(json{{"model", {{"positions", "sin"}}}}, "f", {});
  });
  EXPECT_NE(message.find("model.positions"), std::string::npos) << message;
  EXPECT_NE(message.find("learned | none"), std::string::npos) << message;
}

TEST(Config, InvalidValuesAreErrorsNamingTheKey) {
  struct Case {
    const char* set;
    const char* key;
  };
  for (const auto& c :
       {Case{"train.lr=-1", "train.lr"}, Case{"model.dropout=1.5", "model.dropout"},
        Case{"model.n_heads=0", "model.n_heads"},
        Case{"data.valid_fraction=0.9", "data.test_fraction"},
        Case{"translate.beam=0", "translate.beam"}, Case{"train.ema_decay=1", "train.ema_decay"},
        Case{"train.ema_decay=-0.5", "train.ema_decay"},
        Case{"train.keep_checkpoints=0", "train.keep_checkpoints"},
        Case{"train.bleu_sentences=-1", "train.bleu_sentences"},
        Case{"train.best_metric=bleu4", "train.best_metric"},
        Case{"tokenizer.src_len=100", "model.max_len"},
        Case{"filter.noise_fraction=1", "filter.noise_fraction"},
        Case{"filter.threshold=1.5", "filter.threshold"},
        Case{"filter.batch_size=0", "filter.batch_size"},
        Case{"distributed.timeout_s=0", "distributed.timeout_s"},
        Case{"distributed.backend=mpi", "distributed.backend"}}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", {c.set}); });
    EXPECT_NE(message.find(c.key), std::string::npos) << c.set << ": " << message;
  }
}

TEST(Config, BleuAsTheBestMetricNeedsSentencesAndATranslationModel) {
  EXPECT_EQ(config_from_json(json::object(), "f", {"train.best_metric=bleu"}).train.best_metric,
            BestMetric::kBleu);
  auto message = config_error([&] {
    config_from_json(json::object(), "f", {"train.best_metric=bleu", "train.bleu_sentences=0"});
  });
  EXPECT_NE(message.find("train.bleu_sentences"), std::string::npos) << message;
  message = config_error([&] {
    config_from_json(json::object(), "f", {"train.best_metric=bleu", "filter.pretrained=runs/m"});
  });
  EXPECT_NE(message.find("train.best_metric"), std::string::npos) << message;
  // BLEU is logged by default and may be switched off with another metric.
  EXPECT_EQ(config_from_json(json::object(), "f", {}).train.bleu_sentences, 300);
  EXPECT_EQ(config_from_json(json::object(), "f", {"train.bleu_sentences=0"}).train.bleu_sentences,
            0);
}

TEST(Config, LinearScheduleNeedsMaxStepsBeyondTheWarmUpOrATimeBudget) {
  for (const char* max_steps : {"train.max_steps=0", "train.max_steps=300"}) {
    auto message = config_error([&] {
      config_from_json(json::object(), "f",
                       {"train.schedule=linear", "train.warmup_steps=300", max_steps});
    });
    EXPECT_NE(message.find("train.max_steps"), std::string::npos) << max_steps << ": " << message;
  }
  auto c =
      config_from_json(json::object(), "f",
                       {"train.schedule=linear", "train.warmup_steps=300", "train.max_steps=301"});
  EXPECT_EQ(c.train.schedule, LrSchedule::kLinear);
  // With a time budget the decay ends with the budget; max_steps may then stop the run early.
  for (const char* max_steps : {"train.max_steps=0", "train.max_steps=20"}) {
    auto timed = config_from_json(json::object(), "f",
                                  {"train.schedule=linear", "train.warmup_steps=300", max_steps,
                                   "train.time_budget_minutes=60"});
    EXPECT_EQ(timed.train.schedule, LrSchedule::kLinear) << max_steps;
  }
}

TEST(Config, AdaptiveCutoffsParseAsAListAndAreChecked) {
  auto c = config_from_json(json::object(), "f",
                            {"model.adaptive_cutoffs=[2000,6000]", "model.tie_embeddings=false"});
  EXPECT_EQ(c.model.adaptive_cutoffs, (std::vector<int64_t>{2000, 6000}));
  EXPECT_EQ(config_to_json(c)["model"]["adaptive_cutoffs"], json::array({2000, 6000}));
  struct Case {
    std::vector<std::string> set;
    const char* expected;
  };
  for (const auto& c :
       {Case{{"model.adaptive_cutoffs=2000"}, "--set: model.adaptive_cutoffs: expected a list"},
        Case{{"model.adaptive_cutoffs=[2000, \"x\"]"}, "expected a list of integers"},
        Case{{"model.adaptive_cutoffs=[6000,2000]", "model.tie_embeddings=false"},
             "model.adaptive_cutoffs: must increase strictly"},
        Case{{"model.adaptive_cutoffs=[8000]", "model.tie_embeddings=false"},
             "tokenizer.vocab_size = 8000"},
        Case{{"model.adaptive_cutoffs=[2000]", "model.tie_embeddings=true"},
             "model.tie_embeddings: must be false"},
        Case{{"model.adaptive_div=0"}, "model.adaptive_div"}}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", c.set); });
    EXPECT_NE(message.find(c.expected), std::string::npos) << c.set[0] << ": " << message;
  }
}

TEST(Config, SharedEmbeddingsNeedOneSentencePieceVocabulary) {
  const std::vector<std::string> shared = {"tokenizer.shared=true", "model.share_embeddings=true"};
  // Not in the round trip of every field below: it needs the default tokenizer kind.
  auto c = config_from_json(config_to_json(config_from_json(json::object(), "f", shared)), "r", {});
  EXPECT_TRUE(c.model.share_embeddings);
  for (const auto& set : std::vector<std::vector<std::string>>{
           {"model.share_embeddings=true"},
           {"tokenizer.kind=words", "tokenizer.shared=true", "model.share_embeddings=true"}}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", set); });
    EXPECT_NE(message.find("model.share_embeddings: needs one vocabulary"), std::string::npos)
        << message;
  }
}

TEST(Config, SampleAlphaNeedsSubwordsAndAProbabilityForBpe) {
  // Not in the round trip of every field below: it needs the default tokenizer kind.
  auto c = config_from_json(
      config_to_json(config_from_json(json::object(), "f", {"tokenizer.sample_alpha=0.3"})), "r",
      {});
  EXPECT_DOUBLE_EQ(c.tokenizer.sample_alpha, 0.3);
  EXPECT_DOUBLE_EQ(config_from_json(json::object(), "f", {}).tokenizer.sample_alpha, 0.0);
  struct Case {
    std::vector<std::string> set;
    const char* expected;
  };
  for (const auto& bad :
       {Case{{"tokenizer.sample_alpha=-0.1"}, "tokenizer.sample_alpha: must not be negative"},
        Case{{"tokenizer.kind=words", "tokenizer.sample_alpha=0.3"},
             "tokenizer.sample_alpha: needs tokenizer.kind \"sentencepiece\""},
        Case{{"tokenizer.subword_model=bpe", "tokenizer.sample_alpha=1"},
             "tokenizer.sample_alpha: is BPE-dropout's merge-drop probability"}}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", bad.set); });
    EXPECT_NE(message.find(bad.expected), std::string::npos) << bad.set.back() << ": " << message;
  }
  EXPECT_DOUBLE_EQ(config_from_json(json::object(), "f",
                                    {"tokenizer.subword_model=bpe", "tokenizer.sample_alpha=0.1"})
                       .tokenizer.sample_alpha,
                   0.1);
}

TEST(Config, MalformedSetIsAnError) {
  for (const char* bad : {"model", "model.d_model", "=3", ".x=3", "model.=3"}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", {bad}); });
    EXPECT_NE(message.find("section.key=value"), std::string::npos) << bad << ": " << message;
  }
}

TEST(Config, MissingFileAndInvalidJsonAreErrorsNamingTheFile) {
  auto message = config_error([] { load_config("/nonexistent/atento.json", {}); });
  EXPECT_NE(message.find("/nonexistent/atento.json"), std::string::npos) << message;
  auto path = write_temp("{\"model\": {");
  message = config_error([&] { load_config(path, {}); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("invalid JSON"), std::string::npos) << message;
}

// Every key of every section, written down independently of the visitor in config.cpp: a field
// added to a struct but missing from the visitor (or a renamed key) fails here.
const std::map<std::string, std::set<std::string>> kEveryKey = {
    {"data",
     {"corpus", "train_file", "valid_file", "test_file", "valid_fraction", "test_fraction", "seed",
      "strict", "max_chars", "source_lang", "target_lang", "replay_corpus", "replay_fraction"}},
    {"tokenizer",
     {"kind", "vocab_size", "subword_model", "shared", "byte_fallback", "sample_alpha",
      "character_coverage", "verbose", "src_len", "tgt_len"}},
    {"model",
     {"src_vocab", "tgt_vocab", "d_model", "n_heads", "head_dim", "d_ff", "encoder_layers",
      "decoder_layers", "dropout", "output_dropout", "positions", "max_len", "tie_embeddings",
      "share_embeddings", "adaptive_cutoffs", "adaptive_div", "norm"}},
    {"train",
     {"optimizer",
      "lr",
      "beta1",
      "beta2",
      "rho",
      "eps",
      "weight_decay",
      "decay_vectors",
      "init_from",
      "schedule",
      "warmup_steps",
      "label_smoothing",
      "clip_norm",
      "cuda_graphs",
      "ema_decay",
      "batch_size",
      "batch_tokens",
      "bucket_by_length",
      "accumulate",
      "max_epochs",
      "max_steps",
      "time_budget_minutes",
      "eval_every_steps",
      "valid_subset",
      "best_metric",
      "bleu_sentences",
      "patience",
      "keep_checkpoints",
      "log_every_steps",
      "threads",
      "seed",
      "device",
      "precision"}},
    {"translate",
     {"beam", "length_penalty", "n_best", "max_len_ratio", "max_len_extra", "batch_size",
      "use_cache", "split_sentences", "long_sentence_tokens", "threads", "device", "precision",
      "cuda_graphs"}},
    {"filter", {"pretrained", "random_init", "noise_fraction", "threshold", "batch_size"}},
    {"distributed", {"backend", "timeout_s"}}};

TEST(Config, LanguageCodesAreCheckedAndMustDiffer) {
  EXPECT_NO_THROW(config_from_json(json::object(), "test", {"data.source_lang=pt-BR"}));
  for (const char* bad : {"data.source_lang=English", "data.source_lang=E", "data.target_lang=en",
                          "data.target_lang=es-"}) {
    try {
      config_from_json(json::object(), "test", {bad});
      ADD_FAILURE() << bad << " accepted";
    } catch (const ConfigError& e) {
      EXPECT_NE(std::string(e.what()).find(std::string(bad).substr(0, 16)), std::string::npos)
          << e.what();
    }
  }
}

TEST(Config, JsonHasExactlyTheDocumentedKeys) {
  const json doc = config_to_json(Config{});
  EXPECT_EQ(doc.at(kFormatVersionKey), kModelFormatVersion);
  std::set<std::string> sections;
  for (const auto& [name, section] : doc.items()) {
    if (name == kFormatVersionKey) continue;
    sections.insert(name);
    ASSERT_TRUE(kEveryKey.count(name)) << "unexpected section " << name;
    std::set<std::string> keys;
    for (const auto& item : section.items()) keys.insert(item.key());
    EXPECT_EQ(keys, kEveryKey.at(name)) << "section " << name;
  }
  EXPECT_EQ(sections.size(), kEveryKey.size());
}

// Every field set to a non-default value through the structs (not through the visitor), then
// written and read back: each field compared on its own.
Config non_default_config() {
  Config c;
  c.data.corpus = "a b.tsv";
  c.data.train_file = "t.tsv";
  c.data.valid_file = "v.tsv";
  c.data.test_file = "x.tsv";
  c.data.valid_fraction = 0.2;
  c.data.test_fraction = 0.1;
  c.data.seed = 9;
  c.data.strict = true;
  c.data.max_chars = 77;
  c.data.source_lang = "es";
  c.data.target_lang = "en";
  c.tokenizer.kind = data::TokenizerKind::kWords;
  c.tokenizer.vocab_size = 900;
  c.tokenizer.subword_model = data::SubwordModel::kBpe;
  c.tokenizer.shared = true;
  c.tokenizer.byte_fallback = true;
  c.tokenizer.character_coverage = 0.99;
  c.tokenizer.verbose = true;
  c.tokenizer.src_len = 11;
  c.tokenizer.tgt_len = 12;
  c.model.src_vocab = 901;
  c.model.tgt_vocab = 902;
  c.model.d_model = 48;
  c.model.n_heads = 3;
  c.model.head_dim = 16;
  c.model.d_ff = 96;
  c.model.encoder_layers = 3;
  c.model.decoder_layers = 4;
  c.model.dropout = 0.3;
  c.model.output_dropout = 0.4;
  c.model.positions = model::Positions::kNone;
  c.model.max_len = 40;
  c.model.tie_embeddings = false;
  c.model.adaptive_cutoffs = {100, 500};
  c.model.adaptive_div = 2;
  c.model.norm = model::Norm::kPre;
  c.train.optimizer = OptimizerKind::kRmsprop;
  c.train.lr = 0.01;
  c.train.beta1 = 0.8;
  c.train.beta2 = 0.9;
  c.train.rho = 0.7;
  c.train.eps = 1e-5;
  c.train.weight_decay = 0.01;
  c.train.decay_vectors = false;
  c.train.schedule = LrSchedule::kLinear;
  c.train.warmup_steps = 10;
  c.train.label_smoothing = 0.2;
  c.train.clip_norm = 2.0;
  c.train.ema_decay = 0.9;
  c.train.batch_size = 32;
  c.train.batch_tokens = 1000;
  c.train.bucket_by_length = false;
  c.train.accumulate = 2;
  c.train.max_epochs = 3;
  c.train.max_steps = 500;
  c.train.time_budget_minutes = 1.5;
  c.train.eval_every_steps = 50;
  c.train.valid_subset = 10;
  c.train.best_metric = BestMetric::kLoss;  // bleu is refused with filter.pretrained
  c.train.bleu_sentences = 12;
  c.train.patience = 2;
  c.train.keep_checkpoints = 4;
  c.train.log_every_steps = 5;
  c.train.threads = 1;
  c.train.seed = 7;
  c.train.device = "cuda:1";
  c.train.precision = Precision::kBf16;
  c.train.cuda_graphs = true;
  c.translate.beam = 5;
  c.translate.length_penalty = 1.0;
  c.translate.n_best = 2;
  c.translate.max_len_ratio = 2.0;
  c.translate.max_len_extra = 3;
  c.translate.batch_size = 16;
  c.translate.use_cache = false;
  c.translate.split_sentences = false;
  c.translate.long_sentence_tokens = 30;
  c.translate.threads = 2;
  c.translate.device = "cuda";
  c.translate.precision = Precision::kBf16;
  c.translate.cuda_graphs = true;
  c.filter.pretrained = "runs/sample";
  c.filter.random_init = true;
  c.filter.noise_fraction = 0.25;
  c.filter.threshold = 0.7;
  c.filter.batch_size = 9;
  c.distributed.backend = Backend::kNccl;
  c.distributed.timeout_s = 12.5;
  return c;
}

TEST(Config, JsonRoundTripPreservesEveryField) {
  const Config c = non_default_config();
  const Config r = config_from_json(config_to_json(c), "roundtrip", {});
  EXPECT_EQ(r.data.corpus, c.data.corpus);
  EXPECT_EQ(r.data.train_file, c.data.train_file);
  EXPECT_EQ(r.data.valid_file, c.data.valid_file);
  EXPECT_EQ(r.data.test_file, c.data.test_file);
  EXPECT_EQ(r.data.valid_fraction, c.data.valid_fraction);
  EXPECT_EQ(r.data.test_fraction, c.data.test_fraction);
  EXPECT_EQ(r.data.seed, c.data.seed);
  EXPECT_EQ(r.data.strict, c.data.strict);
  EXPECT_EQ(r.data.max_chars, c.data.max_chars);
  EXPECT_EQ(r.data.source_lang, c.data.source_lang);
  EXPECT_EQ(r.data.target_lang, c.data.target_lang);
  EXPECT_EQ(r.tokenizer.kind, c.tokenizer.kind);
  EXPECT_EQ(r.tokenizer.vocab_size, c.tokenizer.vocab_size);
  EXPECT_EQ(r.tokenizer.subword_model, c.tokenizer.subword_model);
  EXPECT_EQ(r.tokenizer.shared, c.tokenizer.shared);
  EXPECT_EQ(r.tokenizer.byte_fallback, c.tokenizer.byte_fallback);
  EXPECT_EQ(r.tokenizer.character_coverage, c.tokenizer.character_coverage);
  EXPECT_EQ(r.tokenizer.verbose, c.tokenizer.verbose);
  EXPECT_EQ(r.tokenizer.src_len, c.tokenizer.src_len);
  EXPECT_EQ(r.tokenizer.tgt_len, c.tokenizer.tgt_len);
  EXPECT_EQ(r.model.src_vocab, c.model.src_vocab);
  EXPECT_EQ(r.model.tgt_vocab, c.model.tgt_vocab);
  EXPECT_EQ(r.model.d_model, c.model.d_model);
  EXPECT_EQ(r.model.n_heads, c.model.n_heads);
  EXPECT_EQ(r.model.head_dim, c.model.head_dim);
  EXPECT_EQ(r.model.d_ff, c.model.d_ff);
  EXPECT_EQ(r.model.encoder_layers, c.model.encoder_layers);
  EXPECT_EQ(r.model.decoder_layers, c.model.decoder_layers);
  EXPECT_EQ(r.model.dropout, c.model.dropout);
  EXPECT_EQ(r.model.output_dropout, c.model.output_dropout);
  EXPECT_EQ(r.model.positions, c.model.positions);
  EXPECT_EQ(r.model.max_len, c.model.max_len);
  EXPECT_EQ(r.model.tie_embeddings, c.model.tie_embeddings);
  EXPECT_EQ(r.model.adaptive_cutoffs, c.model.adaptive_cutoffs);
  EXPECT_EQ(r.model.adaptive_div, c.model.adaptive_div);
  EXPECT_EQ(r.model.norm, c.model.norm);
  EXPECT_EQ(r.train.optimizer, c.train.optimizer);
  EXPECT_EQ(r.train.lr, c.train.lr);
  EXPECT_EQ(r.train.beta1, c.train.beta1);
  EXPECT_EQ(r.train.beta2, c.train.beta2);
  EXPECT_EQ(r.train.rho, c.train.rho);
  EXPECT_EQ(r.train.eps, c.train.eps);
  EXPECT_EQ(r.train.weight_decay, c.train.weight_decay);
  EXPECT_EQ(r.train.decay_vectors, c.train.decay_vectors);
  EXPECT_EQ(r.train.schedule, c.train.schedule);
  EXPECT_EQ(r.train.warmup_steps, c.train.warmup_steps);
  EXPECT_EQ(r.train.label_smoothing, c.train.label_smoothing);
  EXPECT_EQ(r.train.clip_norm, c.train.clip_norm);
  EXPECT_EQ(r.train.ema_decay, c.train.ema_decay);
  EXPECT_EQ(r.train.batch_size, c.train.batch_size);
  EXPECT_EQ(r.train.batch_tokens, c.train.batch_tokens);
  EXPECT_EQ(r.train.bucket_by_length, c.train.bucket_by_length);
  EXPECT_EQ(r.train.accumulate, c.train.accumulate);
  EXPECT_EQ(r.train.max_epochs, c.train.max_epochs);
  EXPECT_EQ(r.train.max_steps, c.train.max_steps);
  EXPECT_EQ(r.train.time_budget_minutes, c.train.time_budget_minutes);
  EXPECT_EQ(r.train.eval_every_steps, c.train.eval_every_steps);
  EXPECT_EQ(r.train.valid_subset, c.train.valid_subset);
  EXPECT_EQ(r.train.best_metric, c.train.best_metric);
  EXPECT_EQ(r.train.bleu_sentences, c.train.bleu_sentences);
  EXPECT_EQ(r.train.patience, c.train.patience);
  EXPECT_EQ(r.train.keep_checkpoints, c.train.keep_checkpoints);
  EXPECT_EQ(r.train.log_every_steps, c.train.log_every_steps);
  EXPECT_EQ(r.train.threads, c.train.threads);
  EXPECT_EQ(r.train.seed, c.train.seed);
  EXPECT_EQ(r.train.device, c.train.device);
  EXPECT_EQ(r.train.precision, c.train.precision);
  EXPECT_EQ(r.train.cuda_graphs, c.train.cuda_graphs);
  EXPECT_EQ(r.translate.beam, c.translate.beam);
  EXPECT_EQ(r.translate.length_penalty, c.translate.length_penalty);
  EXPECT_EQ(r.translate.n_best, c.translate.n_best);
  EXPECT_EQ(r.translate.max_len_ratio, c.translate.max_len_ratio);
  EXPECT_EQ(r.translate.max_len_extra, c.translate.max_len_extra);
  EXPECT_EQ(r.translate.batch_size, c.translate.batch_size);
  EXPECT_EQ(r.translate.use_cache, c.translate.use_cache);
  EXPECT_EQ(r.translate.split_sentences, c.translate.split_sentences);
  EXPECT_EQ(r.translate.long_sentence_tokens, c.translate.long_sentence_tokens);
  EXPECT_EQ(r.translate.threads, c.translate.threads);
  EXPECT_EQ(r.translate.device, c.translate.device);
  EXPECT_EQ(r.translate.precision, c.translate.precision);
  EXPECT_EQ(r.translate.cuda_graphs, c.translate.cuda_graphs);
  EXPECT_EQ(r.filter.pretrained, c.filter.pretrained);
  EXPECT_EQ(r.filter.random_init, c.filter.random_init);
  EXPECT_EQ(r.filter.noise_fraction, c.filter.noise_fraction);
  EXPECT_EQ(r.filter.threshold, c.filter.threshold);
  EXPECT_EQ(r.filter.batch_size, c.filter.batch_size);
  EXPECT_EQ(r.distributed.backend, c.distributed.backend);
  EXPECT_EQ(r.distributed.timeout_s, c.distributed.timeout_s);
}

TEST(Config, AnotherFormatVersionIsRefusedByName) {
  json doc = config_to_json(Config{});
  EXPECT_NO_THROW(config_from_json(doc, "model/config.json", {}));
  doc.erase(kFormatVersionKey);  // written before versioning: the same layout
  EXPECT_NO_THROW(config_from_json(doc, "model/config.json", {}));
  doc[kFormatVersionKey] = kModelFormatVersion + 1;
  auto message = config_error([&] { config_from_json(doc, "model/config.json", {}); });
  EXPECT_NE(message.find("model/config.json: format_version"), std::string::npos) << message;
  doc[kFormatVersionKey] = "1";
  message = config_error([&] { config_from_json(doc, "model/config.json", {}); });
  EXPECT_NE(message.find("format_version"), std::string::npos) << message;
}

TEST(Config, ShippedConfigsAreValid) {
  for (const char* name : {"sample", "base", "book", "book-nopos", "fast", "fast60"}) {
    std::string path = std::string(ATENTO_SOURCE_DIR) + "/configs/" + name + ".json";
    EXPECT_NO_THROW(load_config(path, {})) << path;
  }
}

TEST(Config, RuntimeOverridesAreLimitedToOneSection) {
  EXPECT_NO_THROW(require_section({"translate.beam=2"}, "translate"));
  auto message = config_error([] { require_section({"model.d_model=8"}, "translate"); });
  EXPECT_NE(message.find("only translate.*"), std::string::npos) << message;
}

TEST(Config, Int8IsForDecodingOnly) {
  const Config c = config_from_json(json::object(), "test", {"translate.precision=int8"});
  EXPECT_EQ(c.translate.precision, Precision::kInt8);
  EXPECT_EQ(config_from_json(config_to_json(c), "round trip", {}).translate.precision,
            Precision::kInt8);
  auto message =
      config_error([] { config_from_json(json::object(), "f", {"train.precision=int8"}); });
  EXPECT_NE(message.find("train.precision"), std::string::npos) << message;
  EXPECT_NE(message.find("decoding only"), std::string::npos) << message;
  message = config_error([] {
    config_from_json(json::object(), "f", {"translate.precision=int8", "translate.device=cuda"});
  });
  EXPECT_NE(message.find("translate.precision"), std::string::npos) << message;
}

TEST(Config, DeviceIsARunTimeChoiceOfTrainAndTranslate) {
  const Config defaults = config_from_json(json::object(), "test", {});
  EXPECT_EQ(defaults.train.device, "cpu");
  EXPECT_EQ(defaults.translate.device, "cpu");
  EXPECT_EQ(defaults.train.precision, Precision::kFp32);
  EXPECT_EQ(defaults.translate.precision, Precision::kFp32);
  const Config c =
      config_from_json(json::object(), "test",
                       {"train.device=cuda:1", "translate.device=cuda", "train.precision=bf16"});
  EXPECT_EQ(c.train.device, "cuda:1");
  EXPECT_EQ(c.translate.device, "cuda");
  EXPECT_EQ(c.train.precision, Precision::kBf16);
  const Config automatic = config_from_json(json{{"translate", {{"precision", "auto"}}}}, "test",
                                            {"train.precision=auto"});
  EXPECT_EQ(automatic.train.precision, Precision::kAuto);
  EXPECT_EQ(automatic.translate.precision, Precision::kAuto);
  EXPECT_EQ(config_from_json(config_to_json(automatic), "round trip", {}).train.precision,
            Precision::kAuto);
  for (const char* bad : {"bogus", "cuda:", "cuda:x", "gpu", "CPU", ""}) {
    const auto message = config_error(
        [&] { config_from_json(json::object(), "f", {std::string("train.device=") + bad}); });
    EXPECT_NE(message.find("train.device"), std::string::npos) << message;
  }
  EXPECT_NE(config_error([] {
              config_from_json(json{{"translate", {{"device", "tpu"}}}}, "f", {});
            }).find("translate.device"),
            std::string::npos);
  EXPECT_NE(config_error([] {
              config_from_json(json::object(), "f", {"translate.precision=fp16"});
            }).find("auto"),
            std::string::npos);
}

TEST(Config, ModelDeviceOfAnOlderModelDirectoryIsAcceptedAndIgnored) {
  json doc = config_to_json(Config{});
  doc["model"]["device"] = "cuda";  // written when the device was part of the architecture
  Config c;
  ASSERT_NO_THROW(c = config_from_json(doc, "model/config.json", {}));
  EXPECT_EQ(c.translate.device, "cpu");
  EXPECT_FALSE(config_to_json(c)["model"].contains("device"));
  // Only that one key: another unknown model key is still an error.
  doc["model"]["devise"] = "cpu";
  EXPECT_NE(config_error([&] { config_from_json(doc, "f", {}); }).find("model.devise"),
            std::string::npos);
}

}  // namespace
}  // namespace atento
