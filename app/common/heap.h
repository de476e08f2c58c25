#pragma once
// Freed heap memory given back to the system, whichever malloc the program runs on.

namespace atento {

/// Returns the heap's free pages to the system: glibc's malloc_trim and, where the program runs
/// on jemalloc (atento-translate, atento-serve), a purge of every jemalloc arena, which
/// malloc_trim does not reach. For the end of a window of lines or of loading a model, not for
/// every batch: jemalloc's pages are faulted in again when next needed (after every batch of a
/// beam-4 run, 2.3× slower).
void release_free_memory();

}  // namespace atento
