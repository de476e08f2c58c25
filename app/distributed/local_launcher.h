#pragma once
// atento-train --nproc N: starts N ranks of a data-parallel group on this machine, the way
// torchrun does (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, MASTER_ADDR, MASTER_PORT in
// each one's environment), and waits for them.

#include <string>
#include <vector>

namespace atento {

/// `args` without the --nproc option (and its value), in their order; argv[0] excluded.
std::vector<std::string> without_nproc(int argc, char** argv);

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick).
int free_loopback_port();

/// Runs `nproc` copies of this executable with `args`, as ranks 0 … nproc-1 meeting at
/// 127.0.0.1 ($MASTER_PORT, or a free port). SIGINT and SIGTERM are passed on to every rank.
/// Returns 0 when every rank exits 0, else the first non-zero exit code by rank (a rank
/// killed by a signal counts as 128 + the signal).
int launch_local_ranks(int nproc, const std::vector<std::string>& args);

}  // namespace atento
