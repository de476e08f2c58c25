#include "app/distributed/local_launcher.h"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <signal.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>

#include "app/common/config.h"

namespace atento {
namespace {

std::vector<pid_t>* g_children = nullptr;

extern "C" void forward_signal(int signal) {
  if (g_children == nullptr) return;
  for (pid_t pid : *g_children) ::kill(pid, signal);
}

/// In the child: the rank's environment, then exec this executable again.
[[noreturn]] void exec_rank(int rank, int nproc, int port, const std::vector<std::string>& args) {
  ::setenv("RANK", std::to_string(rank).c_str(), 1);
  ::setenv("LOCAL_RANK", std::to_string(rank).c_str(), 1);
  ::setenv("WORLD_SIZE", std::to_string(nproc).c_str(), 1);
  ::setenv("LOCAL_WORLD_SIZE", std::to_string(nproc).c_str(), 1);
  ::setenv("MASTER_ADDR", "127.0.0.1", 1);
  ::setenv("MASTER_PORT", std::to_string(port).c_str(), 1);
  std::vector<char*> argv{const_cast<char*>("atento-train")};
  for (const auto& arg : args) argv.push_back(const_cast<char*>(arg.c_str()));
  argv.push_back(nullptr);
  ::execv("/proc/self/exe", argv.data());
  std::fprintf(stderr, "error: cannot start rank %d: %s\n", rank, std::strerror(errno));
  std::_Exit(1);
}

int exit_code(int status) {
  if (WIFEXITED(status)) return WEXITSTATUS(status);
  if (WIFSIGNALED(status)) return 128 + WTERMSIG(status);
  return 1;
}

}  // namespace

/// A TCP port on 127.0.0.1 that nothing listens on now (the kernel's pick).
int free_loopback_port() {
  int fd = ::socket(AF_INET, SOCK_STREAM, 0);
  if (fd < 0) throw std::runtime_error(std::string("socket: ") + std::strerror(errno));
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t length = sizeof address;
  bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&address), sizeof address) == 0 &&
            ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) == 0;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot find a free port on 127.0.0.1 for MASTER_PORT");
  return ntohs(address.sin_port);
}

std::vector<std::string> without_nproc(int argc, char** argv) {
  std::vector<std::string> args;
  for (int i = 1; i < argc; ++i) {
    std::string arg = argv[i];
    if (arg == "--nproc") {
      ++i;  // and its value
    } else if (arg.rfind("--nproc=", 0) != 0) {
      args.push_back(arg);
    }
  }
  return args;
}

int launch_local_ranks(int nproc, const std::vector<std::string>& args) {
  if (const char* world = std::getenv("WORLD_SIZE"); world != nullptr && *world != '\0') {
    throw ConfigError("--nproc starts its own group: unset WORLD_SIZE (now " + std::string(world) +
                      "), or launch one rank per process without --nproc");
  }
  const char* port_text = std::getenv("MASTER_PORT");
  const int port = port_text && *port_text ? std::atoi(port_text) : free_loopback_port();
  std::vector<pid_t> children;
  children.reserve(static_cast<size_t>(nproc));  // the handler reads it: no reallocation
  g_children = &children;
  struct sigaction forward {
  }, previous_int{}, previous_term{};
  forward.sa_handler = forward_signal;
  ::sigaction(SIGINT, &forward, &previous_int);
  ::sigaction(SIGTERM, &forward, &previous_term);
  for (int rank = 0; rank < nproc; ++rank) {
    pid_t pid = ::fork();
    if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
    if (pid == 0) exec_rank(rank, nproc, port, args);
    children.push_back(pid);
  }
  std::vector<int> codes(children.size(), 0);
  for (size_t i = 0; i < children.size(); ++i) {
    int status = 0;
    while (::waitpid(children[i], &status, 0) < 0 && errno == EINTR) {
    }
    codes[i] = exit_code(status);
  }
  ::sigaction(SIGINT, &previous_int, nullptr);
  ::sigaction(SIGTERM, &previous_term, nullptr);
  g_children = nullptr;
  for (int code : codes) {
    if (code != 0) return code;
  }
  return 0;
}

}  // namespace atento
