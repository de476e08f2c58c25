# Sanitized builds of the tests and fuzz targets.
#
# The parsers of untrusted input live in data/ and in LibTorch-free parts of app/. They are
# built a second time, into a LibTorch-free static library with sanitizer flags: LibTorch is
# not instrumented and, with Debian's build, cannot share a process with a directly linked
# SentencePiece (protobuf versions), while ASan cannot run a library dlopen'ed with
# RTLD_DEEPBIND. So these copies link the SentencePiece plugin's code directly, without LibTorch.
set(atento_lite_app_sources
    common/config common/directory_lock common/event_log common/files common/overrides
    common/progress common/stop_signals model_dir/checkpoint_pointer scoring/classification_metrics
    translate/text_segments translate/tag_placement translate/word_alignment
    scoring/metrics translate/input_lines
    train/schedule train/stop_reason train/train_state train/validation_decision)
set(atento_lite_serve_tests)
if(ATENTO_SERVER)  # the server's parsers (with CLD2, found beside cpp-httplib)
  list(APPEND atento_lite_app_sources serve/language_id serve/libretranslate_api
                                      serve/request_batcher)
  set(atento_lite_serve_tests serve/libretranslate_api serve/request_batcher)
endif()
find_package(Threads REQUIRED)

# atento_add_lite(NAME FLAGS...): data/, model/options and the app/ files above with FLAGS.
function(atento_add_lite name)
  file(GLOB data_sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/data/*.cpp)
  list(FILTER data_sources EXCLUDE REGEX ".*/batch\\.cpp$")  # tensors: LibTorch
  set(sources ${data_sources} data/spm/spm_plugin.cpp model/options.cpp)
  foreach(file ${atento_lite_app_sources})
    list(APPEND sources app/${file}.cpp)
  endforeach()
  add_library(${name} STATIC EXCLUDE_FROM_ALL ${sources})
  target_compile_definitions(${name} PRIVATE ATENTO_SPM_DIRECT=1)
  target_compile_options(${name} PUBLIC ${ARGN})
  target_link_options(${name} PUBLIC ${ARGN})
  target_include_directories(${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(${name} PUBLIC PkgConfig::SENTENCEPIECE sentencepiece_train
                                       ICU::uc ICU::i18n LibXml2::LibXml2
                                       nlohmann_json::nlohmann_json
                                       Threads::Threads ${CMAKE_DL_LIBS})
  if(ATENTO_SERVER)
    target_link_libraries(${name} PUBLIC ${CLD2_LIBRARY})
  endif()
endfunction()

# atento_sanitizer_env(OUT LEAKS): the environment of a sanitized ctest entry, errors fatal,
# leak detection LEAKS (1 or 0).
function(atento_sanitizer_env out leaks)
  string(CONCAT env "ASAN_OPTIONS=detect_leaks=${leaks}:abort_on_error=1;"
                    "UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1")
  set(${out} "${env}" PARENT_SCOPE)
endfunction()

# libFuzzer targets (clang only): cmake -DATENTO_FUZZ=ON with CXX=clang++-14; scripts/fuzz.sh.
if(ATENTO_FUZZ)
  set(atento_fuzz_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                        -fno-omit-frame-pointer -g -O1)
  atento_add_lite(atento_fuzz_lite -fsanitize=fuzzer-no-link ${atento_fuzz_flags})
  file(GLOB fuzz_sources CONFIGURE_DEPENDS tests/fuzz/fuzz_*.cpp)
  foreach(source ${fuzz_sources})
    get_filename_component(name ${source} NAME_WE)
    add_executable(${name} ${source})
    target_compile_options(${name} PRIVATE -fsanitize=fuzzer-no-link ${atento_fuzz_flags})
    target_link_options(${name} PRIVATE -fsanitize=fuzzer ${atento_fuzz_flags})
    target_compile_definitions(${name} PRIVATE ATENTO_SOURCE_DIR="${PROJECT_SOURCE_DIR}")
    if(name STREQUAL "fuzz_weights")
      # The weights reader is LibTorch's: model/checkpoint.cpp instrumented, LibTorch not.
      target_sources(${name} PRIVATE model/checkpoint.cpp model/optimizer_state.cpp
                                     model/pickle_bounds.cpp model/zip_bounds.cpp)
      target_include_directories(${name} PRIVATE ${PROJECT_SOURCE_DIR})
      target_link_libraries(${name} PRIVATE ${TORCH_LIBRARIES})
    else()
      target_link_libraries(${name} PRIVATE atento_fuzz_lite)
    endif()
  endforeach()
  return()
endif()
if(NOT BUILD_TESTING OR NOT ATENTO_SANITIZE_TESTS)
  return()
endif()

# ctest entries atento_tests_asan (AddressSanitizer + UndefinedBehaviorSanitizer over the unit
# tests of that LibTorch-free code) and atento_tests_tsan (ThreadSanitizer over the tests that
# use threads or signals), at -O1 and without the precompiled header.
set(atento_asan_flags -fsanitize=address,undefined -fno-sanitize-recover=undefined
                      -fno-omit-frame-pointer -O1 -g1)
atento_add_lite(atento_asan_lite ${atento_asan_flags})
file(GLOB asan_tests CONFIGURE_DEPENDS tests/unit/data/test_*.cpp)
list(FILTER asan_tests EXCLUDE REGEX ".*/test_batch\\.cpp$")
# (wing/name: tests/unit/wing/test_name.cpp)
foreach(name common/config common/directory_lock common/overrides common/stop_signals
             scoring/classification_metrics scoring/metrics train/schedule train/train_state
             train/validation_decision model_dir/checkpoint_pointer translate/input_lines
             translate/tag_placement translate/word_alignment
             ${atento_lite_serve_tests})
  string(REPLACE "/" "/test_" name ${name})
  list(APPEND asan_tests tests/unit/${name}.cpp)
endforeach()
set(tsan_tests tests/unit/serve/test_request_batcher.cpp tests/unit/common/test_stop_signals.cpp
               tests/unit/common/test_directory_lock.cpp)
foreach(kind asan tsan)
  add_executable(atento_tests_${kind} ${${kind}_tests})
  target_compile_definitions(atento_tests_${kind} PRIVATE ATENTO_WITHOUT_TORCH=1
    ATENTO_SOURCE_DIR="${PROJECT_SOURCE_DIR}" ATENTO_BINARY_DIR="${CMAKE_BINARY_DIR}")
  add_test(NAME atento_tests_${kind} COMMAND atento_tests_${kind}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()
target_link_libraries(atento_tests_asan PRIVATE atento_asan_lite GTest::gtest GTest::gtest_main)
# TSan: only the sources those tests use, so the instrumented copy stays small.
add_library(atento_tsan_lite STATIC EXCLUDE_FROM_ALL app/serve/request_batcher.cpp
            app/common/stop_signals.cpp app/common/directory_lock.cpp app/common/files.cpp)
target_include_directories(atento_tsan_lite PUBLIC ${PROJECT_SOURCE_DIR})
target_compile_options(atento_tsan_lite PUBLIC -fsanitize=thread -O1 -g1)
target_link_options(atento_tsan_lite PUBLIC -fsanitize=thread)
target_link_libraries(atento_tsan_lite PUBLIC Threads::Threads)
target_link_libraries(atento_tests_tsan PRIVATE atento_tsan_lite GTest::gtest GTest::gtest_main)
# LibTorch is not in these binaries, so leaks are checked (detect_leaks stays on).
atento_sanitizer_env(env 1)
set_tests_properties(atento_tests_asan PROPERTIES ENVIRONMENT "${env}")
set_tests_properties(atento_tests_tsan PROPERTIES ENVIRONMENT "TSAN_OPTIONS=halt_on_error=1")

# The whole library again with ASan + UBSan, LibTorch itself uninstrumented: its unit tests
# (atento_tests_asan_torch) and the executables (atento_asan_<tool>, run by e2e_asan.sh). A
# second copy costs ~14 s of CPU per file even with a precompiled header, so it is compiled in
# unity batches over an ASan-flavoured precompiled LibTorch header. Nothing here may load a
# SentencePiece model: ASan cannot run code loaded by dlmopen (the LibTorch-free tests above
# cover SentencePiece, linked directly); the plugin is loaded only when such a model is used.
add_library(atento_pch_asan OBJECT EXCLUDE_FROM_ALL ${CMAKE_BINARY_DIR}/atento_pch.cpp)
target_compile_options(atento_pch_asan PRIVATE ${atento_asan_flags})
target_link_libraries(atento_pch_asan PUBLIC ${TORCH_LIBRARIES})
target_precompile_headers(atento_pch_asan PRIVATE <torch/torch.h>)
set(asan_torch_sources "")
foreach(folder data model ${atento_app_wings})
  atento_sources(sources ${folder})
  list(APPEND asan_torch_sources ${sources})
endforeach()
add_library(atento_asan_torch STATIC EXCLUDE_FROM_ALL ${asan_torch_sources})
atento_use_c10d(atento_asan_torch)
file(GLOB asan_torch_test_sources CONFIGURE_DEPENDS tests/unit/model/test_*.cpp)
foreach(name data/batch train/checkpoint_dir cli/cli distributed/data_parallel eval/eval_subsets
             train/optimizer train/split_files)
  string(REPLACE "/" "/test_" name ${name})
  list(APPEND asan_torch_test_sources tests/unit/${name}.cpp)
endforeach()
add_executable(atento_tests_asan_torch ${asan_torch_test_sources})
set(asan_torch_targets atento_asan_torch atento_tests_asan_torch)
foreach(tool ${atento_tools})
  add_executable(atento_asan_${tool} app/cli/${tool}_main.cpp)
  target_link_libraries(atento_asan_${tool} PRIVATE atento_asan_torch)
  list(APPEND asan_torch_targets atento_asan_${tool})
endforeach()
foreach(target ${asan_torch_targets})
  # -O1 inlining makes g++ warn of uninitialised members inside LibTorch's headers.
  target_compile_options(${target} PRIVATE ${atento_asan_flags} -Wno-maybe-uninitialized)
  target_precompile_headers(${target} REUSE_FROM atento_pch_asan)
  set_target_properties(${target} PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 12)
endforeach()
target_include_directories(atento_asan_torch PUBLIC ${PROJECT_SOURCE_DIR})
target_link_options(atento_asan_torch PUBLIC -fsanitize=address,undefined)
target_link_libraries(atento_asan_torch PUBLIC ${TORCH_LIBRARIES} ICU::uc ICU::i18n OpenSSL::Crypto LibXml2::LibXml2
                      CLI11::CLI11
                      nlohmann_json::nlohmann_json Threads::Threads ${CMAKE_DL_LIBS})
if(ATENTO_SERVER)
  target_link_libraries(atento_asan_torch PUBLIC ${HTTPLIB_LINK_LIBRARIES} ${CLD2_LIBRARY})
  atento_embed_files(atento_asan_torch app/serve/page)  # the web page's bytes (page_files.cpp)
endif()
add_dependencies(atento_asan_torch atento_spm)
target_link_libraries(atento_tests_asan_torch PRIVATE atento_asan_torch GTest::gtest
                                                      GTest::gtest_main)
target_compile_definitions(atento_tests_asan_torch PRIVATE
  ATENTO_SOURCE_DIR="${PROJECT_SOURCE_DIR}" ATENTO_BINARY_DIR="${CMAKE_BINARY_DIR}")
add_test(NAME atento_tests_asan_torch COMMAND atento_tests_asan_torch
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# LibTorch keeps allocations alive until exit by design: no leak detection with this library.
atento_sanitizer_env(env 0)
set_tests_properties(atento_tests_asan_torch PROPERTIES ENVIRONMENT "${env}")

# The fuzz targets without libFuzzer (any compiler), under ASan + UBSan: fuzz_replay_<target>
# replays the committed seeds and crash regressions (tests/fuzz/<target>/); fuzz_smoke_<target>
# then runs 15 s of blind mutants of them (tests/fuzz/replay_main.cpp), CI's fuzz smoke run.
function(atento_add_replay target leaks)
  add_executable(replay_${target} tests/fuzz/fuzz_${target}.cpp tests/fuzz/replay_main.cpp)
  add_test(NAME fuzz_replay_${target} COMMAND replay_${target} tests/fuzz/${target}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  add_test(NAME fuzz_smoke_${target}
           COMMAND replay_${target} --mutate 15 --artifact ${CMAKE_BINARY_DIR}/fuzz-smoke-${target}
                   tests/fuzz/${target}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  atento_sanitizer_env(env ${leaks})
  set_tests_properties(fuzz_replay_${target} fuzz_smoke_${target} PROPERTIES ENVIRONMENT "${env}")
  set_tests_properties(fuzz_smoke_${target} PROPERTIES TIMEOUT 300)
endfunction()
foreach(target corpus config words spm checkpoint_state translate_lines html lexicon)
  atento_add_replay(${target} 1)
  target_link_libraries(replay_${target} PRIVATE atento_asan_lite)
endforeach()
# The weights and optimizer reader: its own code instrumented (atento_asan_torch), LibTorch
# not; leak detection off as for atento_tests_asan_torch.
atento_add_replay(weights 0)
target_compile_options(replay_weights PRIVATE ${atento_asan_flags})
target_link_libraries(replay_weights PRIVATE atento_asan_torch)
