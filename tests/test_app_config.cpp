// Configuration: precedence (defaults ← file ← --set), typed errors naming the key.
#include <gtest/gtest.h>

#include <cstdio>
#include <fstream>
#include <nlohmann/json.hpp>

#include "app/config.h"

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
  EXPECT_EQ(c.model.d_model, 32);            // --set beats the file
  EXPECT_EQ(c.model.n_heads, 2);             // the file beats the default
  EXPECT_DOUBLE_EQ(c.train.lr, 0.25);
  EXPECT_EQ(c.data.corpus, "x.tsv");         // unquoted strings are strings
  EXPECT_EQ(c.model.d_ff, Config{}.model.d_ff);  // untouched keys keep defaults
}

TEST(Config, LaterSetOverridesEarlierSet) {
  auto c = config_from_json(json::object(), "test", {"model.d_ff=100", "model.d_ff=200"});
  EXPECT_EQ(c.model.d_ff, 200);
}

TEST(Config, EnumsParseFromTheirNames) {
  auto c = config_from_json(
      json{{"tokenizer", {{"kind", "words"}, {"subword_model", "bpe"}}},
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
  auto message =
      config_error([] { config_from_json(json{{"model", {{"d_model", "big"}}}}, "f.json", {}); });
  EXPECT_NE(message.find("f.json: model.d_model: expected an integer"), std::string::npos)
      << message;
  message = config_error([] { config_from_json(json{{"data", {{"strict", 1}}}}, "f", {}); });
  EXPECT_NE(message.find("data.strict"), std::string::npos) << message;
  message = config_error([] { config_from_json(json{{"train", {{"lr", "fast"}}}}, "f", {}); });
  EXPECT_NE(message.find("train.lr: expected a number"), std::string::npos) << message;
}

TEST(Config, WrongTypeInSetNamesSetAsTheSource) {
  auto message = config_error([] { config_from_json(json::object(), "f", {"model.d_model=abc"}); });
  EXPECT_NE(message.find("--set: model.d_model"), std::string::npos) << message;
}

TEST(Config, BadEnumValueListsTheChoices) {
  auto message =
      config_error([] { config_from_json(json{{"model", {{"positions", "sin"}}}}, "f", {}); });
  EXPECT_NE(message.find("model.positions"), std::string::npos) << message;
  EXPECT_NE(message.find("learned | none"), std::string::npos) << message;
}

TEST(Config, InvalidValuesAreErrorsNamingTheKey) {
  struct Case {
    const char* set;
    const char* key;
  };
  for (const auto& c : {Case{"train.lr=-1", "train.lr"},
                        Case{"model.dropout=1.5", "model.dropout"},
                        Case{"model.n_heads=0", "model.n_heads"},
                        Case{"data.valid_fraction=0.9", "data.test_fraction"},
                        Case{"translate.beam=0", "translate.beam"},
                        Case{"train.ema_decay=1", "train.ema_decay"},
                        Case{"train.ema_decay=-0.5", "train.ema_decay"},
                        Case{"tokenizer.src_len=100", "model.max_len"}}) {
    auto message = config_error([&] { config_from_json(json::object(), "f", {c.set}); });
    EXPECT_NE(message.find(c.key), std::string::npos) << c.set << ": " << message;
  }
}

TEST(Config, LinearScheduleNeedsMaxStepsBeyondTheWarmUp) {
  for (const char* max_steps : {"train.max_steps=0", "train.max_steps=300"}) {
    auto message = config_error([&] {
      config_from_json(json::object(), "f",
                       {"train.schedule=linear", "train.warmup_steps=300", max_steps});
    });
    EXPECT_NE(message.find("train.max_steps"), std::string::npos) << max_steps << ": " << message;
  }
  auto c = config_from_json(json::object(), "f",
                            {"train.schedule=linear", "train.warmup_steps=300",
                             "train.max_steps=301"});
  EXPECT_EQ(c.train.schedule, LrSchedule::kLinear);
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
  for (const auto& c : {
           Case{{"model.adaptive_cutoffs=2000"}, "--set: model.adaptive_cutoffs: expected a list"},
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

TEST(Config, JsonRoundTripPreservesEveryField) {
  auto c = config_from_json(json::object(), "test",
                            {"model.d_model=48", "tokenizer.kind=words", "train.seed=7",
                             "translate.use_cache=false", "data.corpus=a b.tsv"});
  auto again = config_from_json(config_to_json(c), "roundtrip", {});
  EXPECT_EQ(config_to_json(again), config_to_json(c));
  EXPECT_EQ(again.model.d_model, 48);
  EXPECT_EQ(again.train.seed, 7u);
  EXPECT_FALSE(again.translate.use_cache);
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

}  // namespace
}  // namespace atento
