# ctnn_attach_dependencies(<target> [BUILD_TREE]): gives ctnn's INTERFACE target what its headers include from
# other packages, for the platform being built:
#   host builds     Boost (Hana, headers) and xsimd (which needs xtl's package first): find_package + link;
#   cross builds    (CMAKE_CROSSCOMPILING, e.g. arm-none-eabi) no host package is required. xsimd is not
#                   used (no SIMD architecture it knows; kernel/simd/detail/xsimd_config.hpp), and the host's
#                   Boost headers, when found, are searched after the toolchain's own, for C++ only
#                   (-idirafter): a host include directory before newlib's, or in C sources, breaks them.
# BUILD_TREE wraps the links in $<BUILD_INTERFACE:...>, so that the exported target names no host package and
# the installed package decides at find_package time (ctnnConfig.cmake calls this again).
include_guard(GLOBAL)

function(ctnn_attach_dependencies target)
  cmake_parse_arguments(PARSE_ARGV 1 arg "BUILD_TREE" "" "")
  if(CMAKE_CROSSCOMPILING)
    find_path(CTNN_HOST_BOOST_INCLUDE_DIR boost/hana.hpp
              HINTS ${Boost_ROOT} ${BOOST_ROOT} ENV Boost_ROOT PATH_SUFFIXES include
              PATHS /usr/include /usr/local/include NO_CMAKE_FIND_ROOT_PATH
              DOC "Boost headers (Boost.Hana) for cross builds, searched after the toolchain's (-idirafter)")
    if(CTNN_HOST_BOOST_INCLUDE_DIR)
      set(option "$<$<COMPILE_LANGUAGE:CXX>:-idirafter${CTNN_HOST_BOOST_INCLUDE_DIR}>")
      if(arg_BUILD_TREE)
        set(option "$<BUILD_INTERFACE:${option}>")
      endif()
      target_compile_options(${target} INTERFACE "${option}")
    endif()
    return()
  endif()
  find_package(Boost 1.74 REQUIRED)
  find_package(xtl QUIET)
  find_package(xsimd REQUIRED)
  if(TARGET xsimd AND NOT TARGET xtl)
    get_target_property(links xsimd INTERFACE_LINK_LIBRARIES)
    if("xtl" IN_LIST links)
      message(FATAL_ERROR "ctnn needs xtl's CMake package: this xsimd package links the target `xtl`, which was not "
                          "found (on Debian: apt-get install xtl-dev)")
    endif()
  endif()
  if(arg_BUILD_TREE)
    target_link_libraries(${target} INTERFACE $<BUILD_INTERFACE:Boost::headers> $<BUILD_INTERFACE:xsimd>)
  else()
    target_link_libraries(${target} INTERFACE Boost::headers xsimd)
  endif()
endfunction()
