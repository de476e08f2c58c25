// Command-line flags of atento-translate/atento-eval as translate.* overrides.
#include <gtest/gtest.h>

#include "app/common/overrides.h"

namespace atento {
namespace {

using Strings = std::vector<std::string>;

TEST(Overrides, NoFlagsLeaveTheSetListAlone) {
  EXPECT_EQ(with_flag_overrides({}, TranslateFlags{}), Strings{});
  EXPECT_EQ(with_flag_overrides({"translate.beam=3"}, TranslateFlags{}),
            Strings{"translate.beam=3"});
}

TEST(Overrides, EachGivenFlagFollowsTheSetListInOrder) {
  TranslateFlags flags;
  flags.beam = 5;
  flags.n_best = 2;
  flags.batch_size = 32;
  flags.no_cache = true;
  flags.threads = 0;  // 0 is a value (all cores); only -1 is unset
  flags.device = "cuda:1";
  EXPECT_EQ(with_flag_overrides({"translate.length_penalty=1"}, flags),
            (Strings{"translate.length_penalty=1", "translate.beam=5", "translate.n_best=2",
                     "translate.batch_size=32", "translate.use_cache=false", "translate.threads=0",
                     "translate.device=cuda:1"}));
}

TEST(Overrides, OnlyTheFlagsGiven) {
  TranslateFlags flags;
  flags.batch_size = 16;
  EXPECT_EQ(with_flag_overrides({}, flags), Strings{"translate.batch_size=16"});
  flags = TranslateFlags{};
  flags.threads = 3;
  EXPECT_EQ(with_flag_overrides({}, flags), Strings{"translate.threads=3"});
}

TEST(Overrides, NBestWithoutBeamWidensTheBeam) {
  TranslateFlags flags;
  flags.n_best = 3;
  EXPECT_EQ(with_flag_overrides({}, flags), (Strings{"translate.n_best=3", "translate.beam=3"}));
  flags.beam = 6;  // an explicit beam wins
  EXPECT_EQ(with_flag_overrides({}, flags), (Strings{"translate.beam=6", "translate.n_best=3"}));
}

TEST(Overrides, DeviceFlagFollowsTheSetListOfItsSection) {
  EXPECT_EQ(with_device_override({"train.lr=1"}, "train", ""), Strings{"train.lr=1"});
  EXPECT_EQ(with_device_override({"train.device=cuda"}, "train", "cpu"),
            (Strings{"train.device=cuda", "train.device=cpu"}));  // the flag, last, wins
  TranslateFlags flags;
  flags.device = "cpu";
  EXPECT_EQ(with_flag_overrides({}, flags), Strings{"translate.device=cpu"});
}

}  // namespace
}  // namespace atento
