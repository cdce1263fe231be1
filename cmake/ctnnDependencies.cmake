# GNUInstallDirs first: the top-level CMakeLists uses ${CMAKE_INSTALL_INCLUDEDIR} in ctnn's INSTALL_INTERFACE
# before cmake/ctnnInstall.cmake is included.
include(GNUInstallDirs)

# Dependencies are Debian packages: Boost (Hana, headers only) and xsimd (which needs xtl's package first).
find_package(Boost 1.74 REQUIRED)
find_package(xtl QUIET)
find_package(xsimd REQUIRED)

function(ctnn_link_dependencies target)
  target_link_libraries(${target} INTERFACE Boost::headers xsimd)
endfunction()
