#pragma once
// What the CPU running this process can do, for the hand-vectorised loops of model/ (each also
// has a plain or library path for CPUs without it).

namespace atento::model {

/// True on an x86-64 CPU with AVX2 and FMA (and a compiler that can target them).
inline bool cpu_has_avx2_fma() {
#if defined(__x86_64__) && defined(__GNUC__)
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
#else
  return false;
#endif
}

}  // namespace atento::model
