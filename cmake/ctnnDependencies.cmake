# GNUInstallDirs first: the top-level CMakeLists uses ${CMAKE_INSTALL_INCLUDEDIR} in ctnn's INSTALL_INTERFACE
# before cmake/ctnnInstall.cmake is included.
include(GNUInstallDirs)

# Dependencies are Debian packages: Boost (Hana, headers only) and xsimd on hosts; none when cross-compiling
# (cmake/ctnnHostDependencies.cmake).
include(ctnnHostDependencies)

function(ctnn_link_dependencies target)
  ctnn_attach_dependencies(${target} BUILD_TREE)
endfunction()
