# Unit tests (one GoogleTest binary per folder of tests/unit/, linked to that library alone),
# test tools, and the end-to-end scripts of tests/e2e/.
find_package(GTest REQUIRED)
file(GLOB atento_unit_folders LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/tests/unit/*)
foreach(folder ${atento_unit_folders})
  if(NOT IS_DIRECTORY ${folder})
    continue()
  endif()
  get_filename_component(area ${folder} NAME)
  if(NOT TARGET atento_${area})
    continue()  # atento-serve left out (ATENTO_SERVER=OFF)
  endif()
  file(GLOB sources CONFIGURE_DEPENDS ${folder}/test_*.cpp)
  add_executable(atento_tests_${area} ${sources})
  target_link_libraries(atento_tests_${area} PRIVATE atento_${area} GTest::gtest GTest::gtest_main)
  target_compile_definitions(atento_tests_${area} PRIVATE
    ATENTO_SOURCE_DIR="${PROJECT_SOURCE_DIR}" ATENTO_BINARY_DIR="${CMAKE_BINARY_DIR}")
  target_precompile_headers(atento_tests_${area} REUSE_FROM atento_pch)
  # One ctest entry per binary: each process start loads LibTorch (~1.5 s here), which
  # one entry per GoogleTest case would pay ~150 times.
  add_test(NAME atento_tests_${area} COMMAND atento_tests_${area}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
endforeach()

# A test tool: the largest difference between two weights files (e2e_distributed.sh).
add_executable(atento_weights_diff tests/tools/weights_diff.cpp)
target_link_libraries(atento_weights_diff PRIVATE atento_model_dir)
target_precompile_headers(atento_weights_diff REUSE_FROM atento_pch)
# An experiment tool: a clean corpus plus synthetic noise (scripts/noisy_corpus_experiment.sh).
add_executable(atento_make_noisy tests/tools/make_noisy.cpp)
target_link_libraries(atento_make_noisy PRIVATE atento_data)

# A benchmark tool: the one-pass attention of a decoding step against the ATen form (results.md).
add_executable(atento_bench_attention_step tests/tools/bench_attention_step.cpp)
target_link_libraries(atento_bench_attention_step PRIVATE atento_model)
add_executable(atento_bench_step_choice tests/tools/bench_step_choice.cpp)
target_link_libraries(atento_bench_step_choice PRIVATE atento_model)
# The load client of scripts/bench_serve.sh (cpp-httplib's client, with httplib's flags).
if(ATENTO_SERVER)
  find_package(Threads REQUIRED)
  add_executable(atento_serve_load tests/tools/serve_load.cpp)
  target_compile_options(atento_serve_load PRIVATE ${HTTPLIB_CFLAGS_OTHER})
  target_include_directories(atento_serve_load PRIVATE ${HTTPLIB_INCLUDE_DIRS})
  target_link_libraries(atento_serve_load PRIVATE ${HTTPLIB_LINK_LIBRARIES}
                        nlohmann_json::nlohmann_json Threads::Threads)
endif()

# End-to-end tests of the programs on the sample corpus.
file(GLOB e2e_scripts CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/tests/e2e/e2e_*.sh)
foreach(script ${e2e_scripts})
  get_filename_component(name ${script} NAME_WE)
  add_test(NAME ${name} COMMAND bash ${script} ${CMAKE_BINARY_DIR}
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  # 77: the test's input is not on this machine (the real corpus), reported as skipped.
  set_tests_properties(${name} PROPERTIES SKIP_RETURN_CODE 77 TIMEOUT 1200)
endforeach()
# The layering rule: no include runs against the layers (scripts/check_layers.sh).
add_test(NAME check_layers COMMAND bash scripts/check_layers.sh
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
