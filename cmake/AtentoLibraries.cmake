# One static library per source folder, its sources globbed (never listed by hand).

# One precompiled LibTorch header for every heavy translation unit (a TU that includes
# <torch/torch.h> takes 30-60 s to compile on 2 cores). It lives in a tiny target of its own so
# that each library builds without the others.
file(CONFIGURE OUTPUT ${CMAKE_BINARY_DIR}/atento_pch.cpp CONTENT "// precompiled header carrier\n")
add_library(atento_pch OBJECT ${CMAKE_BINARY_DIR}/atento_pch.cpp)
target_link_libraries(atento_pch PUBLIC ${TORCH_LIBRARIES})
target_precompile_headers(atento_pch PRIVATE <torch/torch.h>)

# atento_sources(OUT FOLDER): the library sources of FOLDER (relative to the project), without
# the programs' mains.
function(atento_sources out folder)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*.cpp)
  list(FILTER sources EXCLUDE REGEX ".*_main\\.cpp$")
  set(${out} ${sources} PARENT_SCOPE)
endfunction()

# atento_library(NAME FOLDER [DEPENDS target...]): static library atento_NAME from FOLDER's
# sources, linking DEPENDS publicly (the wings below it), with the shared precompiled header.
function(atento_library name folder)
  cmake_parse_arguments(arg "" "" "DEPENDS" ${ARGN})
  atento_sources(sources ${folder})
  add_library(atento_${name} STATIC ${sources})
  target_include_directories(atento_${name} PUBLIC ${PROJECT_SOURCE_DIR})
  target_link_libraries(atento_${name} PUBLIC ${arg_DEPENDS})
  target_precompile_headers(atento_${name} REUSE_FROM atento_pch)
endfunction()

# atento_program(NAME LIBRARY...): the executable atento-NAME from app/cli/NAME_main.cpp.
function(atento_program name)
  add_executable(atento-${name} ${PROJECT_SOURCE_DIR}/app/cli/${name}_main.cpp)
  target_link_libraries(atento-${name} PRIVATE atento_cli ${ARGN})
endfunction()

# atento_use_jemalloc(NAME...): jemalloc as the malloc of atento-NAME, where ATENTO_JEMALLOC is
# on. Nothing calls jemalloc by name, so the linker's --as-needed would drop it: it is linked as
# needed regardless. Each program carries ATENTO_JEMALLOC_CONF as jemalloc's `malloc_conf`, read
# when jemalloc starts (the MALLOC_CONF environment variable still overrides it).
function(atento_use_jemalloc)
  if(ATENTO_JEMALLOC)
    set(options ${CMAKE_BINARY_DIR}/jemalloc_conf.cpp)
    file(CONFIGURE OUTPUT ${options} CONTENT
      "// jemalloc's options for this program (CMake's ATENTO_JEMALLOC_CONF)\n\
extern \"C\" {\nextern const char* malloc_conf;\n\
const char* malloc_conf = \"${ATENTO_JEMALLOC_CONF}\";\n}\n")
    foreach(name ${ARGN})
      target_sources(atento-${name} PRIVATE ${options})
      target_link_libraries(atento-${name} PRIVATE
        "-Wl,--push-state,--no-as-needed" ${JEMALLOC_LINK_LIBRARIES} "-Wl,--pop-state")
    endforeach()
  endif()
endfunction()
