// A main for the fuzz targets without libFuzzer (any compiler; CMakeLists.txt adds ASan and
// UBSan). Two uses:
//   replay_X INPUT...                 feeds every file named (or found in a directory named) to
//                                     LLVMFuzzerTestOneInput once: the committed seeds and crash
//                                     regressions, in every ctest run;
//   replay_X --mutate SECONDS INPUT...  then, for SECONDS, feeds mutants of those inputs (bit
//                                     flips, byte overwrites with boundary values, insertions,
//                                     deletions, repeats, splices; up to 8 per mutant, seeded by
//                                     --seed N, default 1): a short blind fuzz run without
//                                     coverage guidance, the smoke run of CI. A sanitizer report
//                                     saves the input that caused it to ./fuzz-smoke-crash
//                                     (--artifact PATH) before the process dies.
// scripts/fuzz.sh runs the coverage-guided libFuzzer builds of the same targets.
#include <sanitizer/common_interface_defs.h>

#include <algorithm>
#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <random>
#include <string>
#include <vector>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size);

namespace {

struct Options {
  double mutate_seconds = 0;
  unsigned seed = 1;
  std::string artifact = "fuzz-smoke-crash";
  std::vector<std::filesystem::path> inputs;
};

// The input being run and where to save it if a sanitizer ends the process.
const std::string* g_current = nullptr;
const char* g_artifact = nullptr;

void save_current_input() {
  if (g_current == nullptr || g_artifact == nullptr) return;
  std::ofstream out(g_artifact, std::ios::binary | std::ios::trunc);
  out.write(g_current->data(), static_cast<std::streamsize>(g_current->size()));
  std::fprintf(stderr, "fuzz smoke: the input (%zu bytes) is saved in %s\n", g_current->size(),
               g_artifact);
}

void add_inputs(const char* argument, std::vector<std::filesystem::path>* inputs) {
  if (!std::filesystem::is_directory(argument)) {
    inputs->emplace_back(argument);
    return;
  }
  for (const auto& entry : std::filesystem::recursive_directory_iterator(argument)) {
    if (entry.is_regular_file()) inputs->push_back(entry.path());
  }
}

bool parse(int argc, char** argv, Options* options) {
  for (int i = 1; i < argc; ++i) {
    const std::string argument = argv[i];
    const bool has_value = i + 1 < argc;
    if (argument == "--mutate" && has_value) {
      options->mutate_seconds = std::strtod(argv[++i], nullptr);
    } else if (argument == "--seed" && has_value) {
      options->seed = static_cast<unsigned>(std::strtoul(argv[++i], nullptr, 10));
    } else if (argument == "--artifact" && has_value) {
      options->artifact = argv[++i];
    } else if (argument.rfind("--", 0) == 0) {
      std::fprintf(stderr, "error: unknown option %s\n", argv[i]);
      return false;
    } else {
      add_inputs(argv[i], &options->inputs);
    }
  }
  return true;
}

void run(const std::string& bytes) {
  g_current = &bytes;
  LLVMFuzzerTestOneInput(reinterpret_cast<const uint8_t*>(bytes.data()), bytes.size());
  g_current = nullptr;
}

// One random edit of `bytes`; `other` is another input to splice from.
void mutate_once(std::string* bytes, const std::string& other, std::mt19937* rng) {
  static const uint32_t kBoundary[] = {0,      1,      0x7f,       0x80,      0xff,
                                       0x7fff, 0xffff, 0x7fffffff, 0xffffffff};
  auto pick = [rng](size_t n) { return n == 0 ? 0 : static_cast<size_t>((*rng)() % n); };
  const size_t at = pick(bytes->size() + 1);
  switch ((*rng)() % 6) {
    case 0:  // flip a bit
      if (!bytes->empty()) (*bytes)[pick(bytes->size())] ^= static_cast<char>(1u << pick(8));
      break;
    case 1: {  // overwrite with a boundary value, little-endian, 1 to 4 bytes
      const uint32_t value = kBoundary[pick(std::size(kBoundary))];
      const size_t width =
          std::min<size_t>(1 + pick(4), bytes->size() - std::min(at, bytes->size()));
      for (size_t k = 0; k < width; ++k) (*bytes)[at + k] = static_cast<char>(value >> (8 * k));
      break;
    }
    case 2:  // insert random bytes
      bytes->insert(at, 1 + pick(8), static_cast<char>((*rng)()));
      break;
    case 3:  // delete a range
      bytes->erase(std::min(at, bytes->size()), 1 + pick(16));
      break;
    case 4:  // repeat a range
      bytes->insert(at, bytes->substr(pick(bytes->size()), 1 + pick(64)));
      break;
    default:  // splice a range of another input
      bytes->insert(at, other.substr(pick(other.size()), 1 + pick(64)));
      break;
  }
}

size_t mutate(const std::vector<std::string>& seeds, double seconds, unsigned seed) {
  std::mt19937 rng(seed);
  const auto end = std::chrono::steady_clock::now() + std::chrono::duration<double>(seconds);
  size_t runs = 0;
  while (std::chrono::steady_clock::now() < end) {
    std::string bytes = seeds[rng() % seeds.size()];
    const std::string& other = seeds[rng() % seeds.size()];
    for (unsigned edits = 1 + rng() % 8; edits > 0; --edits) mutate_once(&bytes, other, &rng);
    run(bytes);
    ++runs;
  }
  return runs;
}

}  // namespace

int main(int argc, char** argv) {
  Options options;
  if (!parse(argc, argv, &options)) return 2;
  g_artifact = options.artifact.c_str();
  __sanitizer_set_death_callback(save_current_input);
  std::vector<std::string> seeds;
  for (const auto& path : options.inputs) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
      std::fprintf(stderr, "error: cannot read %s\n", path.c_str());
      return 1;
    }
    seeds.emplace_back(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>());
    run(seeds.back());
  }
  std::printf("replayed %zu inputs\n", seeds.size());
  if (seeds.empty()) return 1;
  if (options.mutate_seconds > 0) {
    const size_t runs = mutate(seeds, options.mutate_seconds, options.seed);
    std::printf("ran %zu mutants in %.0f s (seed %u), no sanitizer report\n", runs,
                options.mutate_seconds, options.seed);
  }
  return 0;
}
