# Precompiled headers (issue: the build of a fresh clone took 35 minutes on 2 cores, most of it
# parsing the same Qt headers in ~900 translation units). One provider target per set of
# compile flags builds the header once; every other target reuses its .gch (REUSE_FROM).
#
# GCC uses a reused PCH only when the consumer's flags and macros match the provider's; when
# they do not it silently parses the header as text instead (correct, only slower). The
# providers therefore link exactly what their consumers link, and Qt6::Test's per-directory
# macros are reduced (tests/CMakeLists.txt). SERVEBENCH_PCH=OFF builds without them.
option(SERVEBENCH_PCH "Use precompiled headers" ON)

set(_sb_pch_dir ${PROJECT_SOURCE_DIR}/cmake)

# sb_make_pch(<provider> HEADER <file> LIBS <libs...>): a small static library that compiles the
# header once for targets linking the same LIBS.
function(sb_make_pch provider)
    cmake_parse_arguments(ARG "" "HEADER" "LIBS" ${ARGN})
    if(NOT SERVEBENCH_PCH)
        return()
    endif()
    add_library(${provider} STATIC ${_sb_pch_dir}/pch_anchor.cpp)
    target_link_libraries(${provider} PRIVATE ${ARG_LIBS})
    target_include_directories(${provider} PRIVATE ${_sb_pch_dir})
    target_precompile_headers(${provider} PRIVATE ${_sb_pch_dir}/${ARG_HEADER})
endfunction()

# sb_use_pch(<target> <provider>): reuse the provider's header (nothing when PCH is off).
function(sb_use_pch target provider)
    if(SERVEBENCH_PCH AND TARGET ${provider})
        target_precompile_headers(${target} REUSE_FROM ${provider})
        target_include_directories(${target} PRIVATE ${_sb_pch_dir})
    endif()
endfunction()
