# atento_embed_files(TARGET FOLDER): compiles every file of FOLDER (relative to the project) into
# TARGET as bytes, so that the program needs no file beside it at run time while the files stay
# ordinary, editable files in the source tree. A generated source in the build tree defines
# kEmbeddedFiles (app/serve/embedded_files.h); it is regenerated when a file changes, and a file
# added to or removed from FOLDER re-runs CMake (CONFIGURE_DEPENDS).
function(atento_embed_files target folder)
  file(GLOB files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/${folder}/*)
  list(SORT files)
  string(MAKE_C_IDENTIFIER ${folder} id)
  set(output ${CMAKE_BINARY_DIR}/generated/${id}_files.cpp)
  # One rule per folder; a second target (the sanitizer build's copy of the library) shares it.
  get_property(done GLOBAL PROPERTY atento_embedded_${id})
  if(NOT done)
    set_property(GLOBAL PROPERTY atento_embedded_${id} TRUE)
    add_custom_command(
      OUTPUT ${output}
      COMMAND ${CMAKE_COMMAND} -DFOLDER=${PROJECT_SOURCE_DIR}/${folder} -DOUTPUT=${output}
              -P ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
      DEPENDS ${files} ${PROJECT_SOURCE_DIR}/cmake/embed_files.cmake
      COMMENT "Embedding ${folder}/"
      VERBATIM)
  endif()
  target_sources(${target} PRIVATE ${output})
  set_source_files_properties(${output} PROPERTIES
    SKIP_PRECOMPILE_HEADERS ON SKIP_UNITY_BUILD_INCLUSION ON)
endfunction()
