# How SentencePiece is kept apart from LibTorch, and the plugin that holds it.
#
# dlmopen:  libatento_spm.so and everything it needs (libsentencepiece with its embedded
#           protobuf, its own libstdc++) are loaded into a link-map namespace of their own
#           (dlmopen(LM_ID_NEWLM)): nothing binds across. For a LibTorch that exports protobuf:
#           Debian's exports 3.21 while Debian's libsentencepiece embeds 3.14 (linked into one
#           process they crash before main); upstream wheels export theirs too.
# deepbind: the same plugin dlopen'ed with RTLD_LOCAL | RTLD_DEEPBIND (works with Debian's
#           LibTorch; with an upstream wheel, whose g++ differs from libsentencepiece's,
#           SentencePiece's static initialisers crash inside the plugin).
# direct:   the plugin linked normally and called without dlopen, for a LibTorch that exports
#           no protobuf.
# AUTO:     dlmopen when a Torch library exports protobuf symbols (nm -D), else direct.
# Sets atento_spm_mode; defines the target atento_spm (the only code that links SentencePiece;
# it never links LibTorch).
set(ATENTO_SPM_ISOLATION AUTO CACHE STRING
    "SentencePiece isolation: AUTO, dlmopen, deepbind or direct")
set_property(CACHE ATENTO_SPM_ISOLATION PROPERTY STRINGS AUTO dlmopen deepbind direct)
set(atento_spm_mode ${ATENTO_SPM_ISOLATION})
if(atento_spm_mode STREQUAL "AUTO")
  find_program(ATENTO_NM NAMES nm REQUIRED)
  set(atento_protobuf_in "")
  foreach(lib torch_cpu torch)
    find_library(atento_torch_${lib} NAMES ${lib} HINTS ${TORCH_INSTALL_PREFIX}/lib NO_CACHE)
    if(atento_torch_${lib})
      execute_process(COMMAND ${ATENTO_NM} -D --defined-only ${atento_torch_${lib}}
                      OUTPUT_VARIABLE atento_symbols ERROR_QUIET)
      string(FIND "${atento_symbols}" "_ZN6google8protobuf" atento_found)
      if(NOT atento_found EQUAL -1)
        set(atento_protobuf_in ${atento_torch_${lib}})
        break()
      endif()
    endif()
  endforeach()
  if(atento_protobuf_in)
    set(atento_spm_mode dlmopen)
    set(atento_spm_why "${atento_protobuf_in} exports protobuf")
  else()
    set(atento_spm_mode direct)
    set(atento_spm_why "no Torch library exports protobuf")
  endif()
else()
  set(atento_spm_why "set by ATENTO_SPM_ISOLATION")
endif()
if(NOT atento_spm_mode MATCHES "^(dlmopen|deepbind|direct)$")
  message(FATAL_ERROR "ATENTO_SPM_ISOLATION must be AUTO, dlmopen, deepbind or direct, got "
                      "'${ATENTO_SPM_ISOLATION}'")
endif()
message(STATUS "Atento: SentencePiece isolation: ${atento_spm_mode} (${atento_spm_why})")
if(atento_spm_mode STREQUAL "deepbind")
  # Executables that dlopen the SentencePiece plugin with RTLD_DEEPBIND must not hold
  # copy-relocated libstdc++ objects (std::cout), or the plugin writes to uninitialised copies
  # and crashes the first time SentencePiece logs (`readelf -r EXE | grep COPY` shows them).
  add_compile_options(-mno-direct-extern-access)
endif()

add_library(atento_spm SHARED data/spm/spm_plugin.cpp)
target_include_directories(atento_spm PRIVATE ${PROJECT_SOURCE_DIR})
target_link_libraries(atento_spm PRIVATE PkgConfig::SENTENCEPIECE sentencepiece_train)
set_target_properties(atento_spm PROPERTIES CXX_VISIBILITY_PRESET hidden
                                            VISIBILITY_INLINES_HIDDEN ON)

# atento_use_spm(TARGET): TARGET holds data/sentencepiece.cpp; wires it to the plugin as the
# isolation mode says.
function(atento_use_spm target)
  if(atento_spm_mode STREQUAL "direct")
    target_link_libraries(${target} PUBLIC atento_spm)
    set_source_files_properties(data/sentencepiece.cpp PROPERTIES COMPILE_DEFINITIONS
                                                                ATENTO_SPM_DIRECT=1)
  elseif(atento_spm_mode STREQUAL "dlmopen")
    set_source_files_properties(data/sentencepiece.cpp PROPERTIES COMPILE_DEFINITIONS
                                                                ATENTO_SPM_DLMOPEN=1)
    add_dependencies(${target} atento_spm)
  else()
    add_dependencies(${target} atento_spm)
  endif()
endfunction()
