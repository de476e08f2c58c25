#pragma once
// Which rank of a data-parallel group this process is, read the way torchrun, Slurm wrappers
// and plain shell loops say it: RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR,
// MASTER_PORT.

#include <cstdint>
#include <string>

namespace atento {

struct RankEnvironment {
  int64_t rank = 0;              ///< RANK: 0 … world_size-1
  int64_t world_size = 1;        ///< WORLD_SIZE: ranks in the group
  int64_t local_rank = 0;        ///< LOCAL_RANK: rank among this machine's ranks
  int64_t local_world_size = 1;  ///< LOCAL_WORLD_SIZE: this machine's ranks (threads split)
  std::string master_addr = "127.0.0.1";  ///< MASTER_ADDR: where rank 0 listens
  int64_t master_port = 29500;            ///< MASTER_PORT
  /// WORLD_SIZE was set: this process is a rank of a group, even a group of one (which then
  /// runs every collective too: the way to measure their cost on one GPU).
  bool in_group = false;
  bool distributed() const { return in_group; }
};

/// The group described by the environment; one process outside any group when WORLD_SIZE
/// is unset. Throws ConfigError naming the variable when one is malformed or out of range.
RankEnvironment rank_environment();

/// The same from a lookup function (tests): `get(name)` returns nullptr for an unset name.
RankEnvironment rank_environment(const char* (*get)(const char*));

}  // namespace atento
