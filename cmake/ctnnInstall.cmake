# Install rules and the CMake package: after `cmake --install`, a project finds ctnn with
#
#   find_package(ctnn CONFIG REQUIRED)
#   target_link_libraries(app PRIVATE ctnn::ctnn)
#
# Installed layout (relative to the prefix; ctnn is header-only, so nothing depends on the architecture):
#   include/ctnn/...                  the headers
#   share/cmake/ctnn/ctnnConfig.cmake  + ctnnConfigVersion.cmake, ctnnTargets.cmake and the public modules
#
# The rules are generated only when CTNN_INSTALL is ON (the default when ctnn is the top-level project), so
# that add_subdirectory(ctnn) in a firmware project does not add ctnn to that project's install.
# GNUInstallDirs is included by cmake/ctnnDependencies.cmake (the target's INSTALL_INTERFACE needs it early).

include(CMakePackageConfigHelpers)

option(CTNN_INSTALL "Generate ctnn's install rules and CMake package" ${PROJECT_IS_TOP_LEVEL})
set(CTNN_INSTALL_CMAKEDIR "${CMAKE_INSTALL_DATADIR}/cmake/ctnn"
    CACHE STRING "Where ctnn's CMake package files are installed, relative to the prefix")

# Public CMake modules from cmake/: installed beside ctnnConfig.cmake and included by it, so that a project
# that finds ctnn gets their functions (ctnn_add_model, ...). Add new public modules here; internal ones
# (ctnnDependencies, ctnnWarnings, ctnnInstall, ctnnBaremetal, ctnnQdqRendering, toolchains/) stay out. A module listed here
# before its file exists is skipped with a developer warning.
set(CTNN_PUBLIC_CMAKE_MODULES
  ctnnHostDependencies.cmake  # ctnn_attach_dependencies(): host packages on hosts, none when cross-compiling
  ctnnCApi.cmake      # ctnn_add_model(... C_API): a model's C interface (included by ctnnAddModel.cmake)
  ctnnAddModel.cmake  # ctnn_add_model(): embeds a .tflite/.onnx file as a model type
)

# The same functions for this build and for projects that add ctnn with add_subdirectory().
foreach(_ctnn_module IN LISTS CTNN_PUBLIC_CMAKE_MODULES)
  if(EXISTS "${CMAKE_CURRENT_LIST_DIR}/${_ctnn_module}")
    include("${CMAKE_CURRENT_LIST_DIR}/${_ctnn_module}")
  endif()
endforeach()
unset(_ctnn_module)

if(NOT CTNN_INSTALL)
  return()
endif()

install(DIRECTORY "${PROJECT_SOURCE_DIR}/include/ctnn"
        DESTINATION "${CMAKE_INSTALL_INCLUDEDIR}")

# Cortex-M: the toolchain files and, beside them, the board files they use (linker scripts for qemu's MPS2
# boards, start-up code): -DCMAKE_TOOLCHAIN_FILE=<prefix>/share/ctnn/cortex-m/arm-none-eabi-cortex-m4.cmake.
install(FILES
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m0plus.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m4.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m7.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m33.cmake"
  "${PROJECT_SOURCE_DIR}/cmake/toolchains/arm-none-eabi-cortex-m55.cmake"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/mps2_an386.ld"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/mps2_an505.ld"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/mps3_an547.ld"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/cortex_m_sections.ld"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/startup_cortex_m4.c"
  "${PROJECT_SOURCE_DIR}/tests/baremetal/ctnn_baremetal.h"
  DESTINATION "${CMAKE_INSTALL_DATADIR}/ctnn/cortex-m")

install(TARGETS ctnn EXPORT ctnnTargets)
install(EXPORT ctnnTargets
        NAMESPACE ctnn::
        FILE ctnnTargets.cmake
        DESTINATION "${CTNN_INSTALL_CMAKEDIR}")

set(CTNN_CONFIG_INCLUDE_MODULES "")
foreach(_ctnn_module IN LISTS CTNN_PUBLIC_CMAKE_MODULES)
  set(_ctnn_module_path "${PROJECT_SOURCE_DIR}/cmake/${_ctnn_module}")
  if(NOT EXISTS "${_ctnn_module_path}")
    message(AUTHOR_WARNING "ctnn: public CMake module cmake/${_ctnn_module} is listed in "
                           "CTNN_PUBLIC_CMAKE_MODULES (cmake/ctnnInstall.cmake) but does not exist; not installed.")
    continue()
  endif()
  install(FILES "${_ctnn_module_path}" DESTINATION "${CTNN_INSTALL_CMAKEDIR}")
  string(APPEND CTNN_CONFIG_INCLUDE_MODULES "include(\"\${CMAKE_CURRENT_LIST_DIR}/${_ctnn_module}\")\n")
endforeach()
unset(_ctnn_module)
unset(_ctnn_module_path)

configure_package_config_file(
  "${CMAKE_CURRENT_LIST_DIR}/ctnnConfig.cmake.in"
  "${PROJECT_BINARY_DIR}/ctnnConfig.cmake"
  INSTALL_DESTINATION "${CTNN_INSTALL_CMAKEDIR}"
  NO_SET_AND_CHECK_MACRO)
write_basic_package_version_file(
  "${PROJECT_BINARY_DIR}/ctnnConfigVersion.cmake"
  VERSION "${PROJECT_VERSION}"
  COMPATIBILITY SameMajorVersion
  ARCH_INDEPENDENT)
install(FILES "${PROJECT_BINARY_DIR}/ctnnConfig.cmake" "${PROJECT_BINARY_DIR}/ctnnConfigVersion.cmake"
        DESTINATION "${CTNN_INSTALL_CMAKEDIR}")
