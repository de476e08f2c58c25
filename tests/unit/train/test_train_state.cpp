// TrainState ⇄ state.json: every field survives, NaN (no best yet) included, and a corrupt or
// incomplete file is an error naming it.
#include <gtest/gtest.h>

#include <cmath>
#include <nlohmann/json.hpp>

#include "app/train/train_state.h"
#include "tests/unit/test_data_util.h"

namespace atento {
namespace {

using data::test_util::TempDir;

TrainState sample_state() {
  TrainState s;
  s.step = 1234;
  s.epoch = 7;
  s.batch_in_epoch = 56;
  s.elapsed_s = 98.765;
  s.target_tokens = 4567890;
  s.examples = 4321;
  s.best_value = 0.6125;
  s.best_step = 1200;
  s.evals_since_best = 2;
  s.last_eval_step = 1230;
  return s;
}

void expect_same(const TrainState& a, const TrainState& b) {
  EXPECT_EQ(a.step, b.step);
  EXPECT_EQ(a.epoch, b.epoch);
  EXPECT_EQ(a.batch_in_epoch, b.batch_in_epoch);
  EXPECT_EQ(a.elapsed_s, b.elapsed_s);
  EXPECT_EQ(a.target_tokens, b.target_tokens);
  EXPECT_EQ(a.examples, b.examples);
  if (std::isnan(a.best_value)) {
    EXPECT_TRUE(std::isnan(b.best_value));
  } else {
    EXPECT_EQ(a.best_value, b.best_value);
  }
  EXPECT_EQ(a.best_step, b.best_step);
  EXPECT_EQ(a.evals_since_best, b.evals_since_best);
  EXPECT_EQ(a.last_eval_step, b.last_eval_step);
}

TEST(TrainState, EveryFieldSurvivesTheRoundTrip) {
  auto state = sample_state();
  // Through text, as state.json is written and read.
  auto text = train_state_to_json(state).dump(2);
  expect_same(state, train_state_from_json(nlohmann::json::parse(text), "state.json"));
}

TEST(TrainState, NoBestYetIsNullAndComesBackAsNaN) {
  TrainState fresh;  // best_value NaN, best_step -1, last_eval_step -1
  auto doc = train_state_to_json(fresh);
  EXPECT_TRUE(doc.at("best_value").is_null());
  auto back = train_state_from_json(nlohmann::json::parse(doc.dump()), "state.json");
  EXPECT_TRUE(std::isnan(back.best_value));
  expect_same(fresh, back);
}

TEST(TrainState, ReadsTheFileItWasWrittenTo) {
  TempDir dir;
  auto state = sample_state();
  auto path = dir.write("state.json", train_state_to_json(state).dump(2) + "\n");
  expect_same(state, read_train_state(path));
}

/// The message of the std::runtime_error `body` throws ("" when it throws none).
template <class F>
std::string error_of(F body) {
  try {
    body();
  } catch (const std::runtime_error& e) {
    return e.what();
  }
  return "";
}

TEST(TrainState, AMissingFieldIsAnErrorNamingTheSource) {
  auto doc = train_state_to_json(sample_state());
  doc.erase("batch_in_epoch");
  auto message = error_of([&] { train_state_from_json(doc, "run/state.json"); });
  EXPECT_NE(message.find("run/state.json: corrupt training state"), std::string::npos) << message;
  EXPECT_NE(message.find("batch_in_epoch"), std::string::npos) << message;
}

TEST(TrainState, AWrongTypeIsAnErrorNamingTheSource) {
  auto doc = train_state_to_json(sample_state());
  doc["step"] = "twelve";
  auto message = error_of([&] { train_state_from_json(doc, "run/state.json"); });
  EXPECT_NE(message.find("run/state.json: corrupt training state"), std::string::npos) << message;
}

TEST(TrainState, AFileThatIsNotJsonIsAnErrorNamingIt) {
  TempDir dir;
  auto path = dir.write("state.json", "{\"step\": 12,");  // cut off mid-write
  auto message = error_of([&] { read_train_state(path); });
  EXPECT_NE(message.find(path + ": corrupt training state"), std::string::npos) << message;
  auto missing = dir.file("absent.json");
  message = error_of([&] { read_train_state(missing); });
  EXPECT_NE(message.find(missing), std::string::npos) << message;
}

TEST(TrainState, OutOfRangeOrNonIntegerCountersAreCorrupt) {
  // Converting 1e300 or -1.5 to int64_t would be undefined behaviour: each is refused by name.
  for (const char* bad : {"1e300", "-1", "2.5", "18446744073709551615", "null", "true"}) {
    auto doc = train_state_to_json(sample_state());
    doc["step"] = nlohmann::json::parse(bad);
    auto message = error_of([&] { train_state_from_json(doc, "run/state.json"); });
    EXPECT_NE(message.find("run/state.json: corrupt training state: \"step\""), std::string::npos)
        << bad << ": " << message;
  }
  auto doc = train_state_to_json(sample_state());
  doc["elapsed_s"] = "soon";
  EXPECT_NE(error_of([&] { train_state_from_json(doc, "s"); }).find("elapsed_s"),
            std::string::npos);
  EXPECT_NE(error_of([&] {
              train_state_from_json(nlohmann::json::array(), "s");
            }).find("not a JSON object"),
            std::string::npos);
}

TEST(TrainState, ANumberBeyondADoubleIsAnErrorNamingTheFile) {
  // nlohmann reports 1e400 as out_of_range, which escaped the parse_error handler (found by
  // tests/fuzz/fuzz_checkpoint_state; the input is tests/fuzz/checkpoint_state/crash_*).
  TempDir dir;
  auto path = dir.write("state.json", "{\"step\": 1e400}");
  auto message = error_of([&] { read_train_state(path); });
  EXPECT_NE(message.find(path + ": corrupt training state"), std::string::npos) << message;
}

TEST(TrainState, AnOversizedFileIsRefusedBeforeItIsRead) {
  TempDir dir;
  auto path = dir.write("state.json", std::string(kMaxStateBytes + 1, ' '));
  auto message = error_of([&] { read_train_state(path); });
  EXPECT_NE(message.find(path), std::string::npos) << message;
  EXPECT_NE(message.find("more than the"), std::string::npos) << message;
}

}  // namespace
}  // namespace atento
