#pragma once
// Freed heap memory given back to the system, whichever malloc the program runs on.

namespace atento {

/// Returns the heap's free pages to the system: glibc's malloc_trim and, where the program runs
/// on jemalloc (atento-translate, atento-serve), a purge of every jemalloc arena, which
/// malloc_trim does not reach. For the end of a batch or of a window of lines, not for every
/// decoding step: the pages are faulted in again when next needed.
void release_free_memory();

}  // namespace atento
