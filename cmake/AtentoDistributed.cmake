# Data-parallel training: PyTorch's c10d engine.
# Gloo (CPU tensors, any TCP network) when LibTorch ships ProcessGroupGloo and Gloo's headers
# are here (Debian: libgloo-dev); NCCL (CUDA tensors) when LibTorch was built with CUDA and
# nccl.h is found ($NCCL_ROOT/include or the CUDA toolkit's include). Without either,
# atento-train still trains in one process and says so when asked for a group.
# Sets atento_dist_definitions, atento_dist_libraries and ATENTO_NCCL_INCLUDE.
find_package(Gloo CONFIG QUIET)
find_path(ATENTO_C10D_GLOO_HEADER torch/csrc/distributed/c10d/ProcessGroupGloo.hpp
          HINTS ${TORCH_INCLUDE_DIRS} NO_CACHE)
set(atento_dist_definitions "")
set(atento_dist_libraries "")
if(TARGET gloo AND ATENTO_C10D_GLOO_HEADER)
  list(APPEND atento_dist_definitions USE_C10D_GLOO ATENTO_WITH_GLOO)
  list(APPEND atento_dist_libraries gloo)
endif()
find_path(ATENTO_C10D_NCCL_HEADER torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp
          HINTS ${TORCH_INCLUDE_DIRS} NO_CACHE)
find_path(ATENTO_NCCL_INCLUDE nccl.h HINTS $ENV{NCCL_ROOT}/include ${CUDAToolkit_INCLUDE_DIRS}
          ${CUDA_INCLUDE_DIRS} NO_CACHE)
if(TARGET torch_cuda AND ATENTO_C10D_NCCL_HEADER AND ATENTO_NCCL_INCLUDE)
  list(APPEND atento_dist_definitions USE_C10D_NCCL ATENTO_WITH_NCCL)
else()
  set(ATENTO_NCCL_INCLUDE "")
endif()
message(STATUS "Atento: data-parallel backends: ${atento_dist_definitions}")

# atento_use_c10d(TARGET): TARGET holds app/distributed/process_group.cpp, the one file that
# includes c10d's process groups (it skips the shared precompiled header, built without them).
function(atento_use_c10d target)
  set_source_files_properties(app/distributed/process_group.cpp PROPERTIES
    COMPILE_DEFINITIONS "${atento_dist_definitions}" SKIP_PRECOMPILE_HEADERS ON)
  if(ATENTO_NCCL_INCLUDE)
    target_include_directories(${target} PRIVATE ${ATENTO_NCCL_INCLUDE})
  endif()
  target_link_libraries(${target} PUBLIC ${atento_dist_libraries})
endfunction()
