# install.cmake: what `cmake --install` puts under the prefix (GNUInstallDirs), the exported
# targets and package files for find_package(dctwin), and CPack's Debian package.
#
#   <prefix>/bin/dctwin, dctwin-gui
#   <prefix>/lib/libdctwin_solver.a, libdctwin_models.a
#   <prefix>/lib/cmake/dctwin/        dctwinConfig.cmake, dctwinConfigVersion.cmake, dctwinTargets*.cmake
#   <prefix>/include/dctwin/          solver/**.h (the public ones), models/*.h: included as in the
#                                     source tree, "solver/run/run.h", "models/pump.h"
#   <prefix>/share/dctwin/data/       catalog, facilities, scenarios, sweeps, telemetry
#   <prefix>/share/dctwin/scripts/    report.py (dctwin report)
#   <prefix>/share/doc/dctwin/        README.md, CHANGELOG.md, docs/ (the links of README.md hold)
#
# The tree is relocatable: the programs find data/ and scripts/ relative to themselves
# (solver/common/paths.h); dctwinConfig.cmake computes its paths from its own location.
include(CMakePackageConfigHelpers)

# 1. programs
install(TARGETS dctwin RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET dctwin-gui)
  install(TARGETS dctwin-gui RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()

# the man page and the bash completion, generated at build time by the program from its own
# option definitions (`dctwin man`, `dctwin completion bash`; solver/cli/cli_docs.h)
#   <prefix>/share/man/man1/dctwin.1, <prefix>/share/bash-completion/completions/dctwin
add_custom_command(
  OUTPUT ${PROJECT_BINARY_DIR}/dctwin.1 ${PROJECT_BINARY_DIR}/dctwin.bash
  COMMAND dctwin man -o ${PROJECT_BINARY_DIR}/dctwin.1
  COMMAND dctwin completion bash -o ${PROJECT_BINARY_DIR}/dctwin.bash
  DEPENDS dctwin
  COMMENT "man page dctwin.1 and bash completion dctwin.bash (from the CLI's definitions)"
  VERBATIM)
add_custom_target(dctwin_cli_docs ALL DEPENDS ${PROJECT_BINARY_DIR}/dctwin.1
                                              ${PROJECT_BINARY_DIR}/dctwin.bash)
install(FILES ${PROJECT_BINARY_DIR}/dctwin.1 DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
install(FILES ${PROJECT_BINARY_DIR}/dctwin.bash
        DESTINATION ${CMAKE_INSTALL_DATADIR}/bash-completion/completions RENAME dctwin)

# 2. the library (static) and its public headers. Public: what a front includes (the spec and its
# loaders, the run path, sweeps, the output table, sinks, the results file and its reader, units,
# paths and provenance) and the component models. Private: compile/ (the model's layout),
# engine/ (the state), output/observe.h, output/vtk/, input/yaml_reader.h (yaml-cpp types).
# (the include folder is the targets' INSTALL_INTERFACE, solver/ and models/CMakeLists.txt)
install(TARGETS dctwin_solver dctwin_models EXPORT dctwinTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR})
set(DCTWIN_PUBLIC_HEADERS
    solver/common/bounded_file.h solver/common/event_table.h solver/common/fault_table.h
    solver/common/params.h solver/common/paths.h
    solver/common/provenance.h solver/common/report.h solver/common/run_limits.h
    solver/common/units.h
    solver/input/keys.h solver/input/loader.h solver/input/scenario.h solver/input/spec.h
    solver/input/sweep_file.h
    solver/output/observables.h solver/output/results.h
    solver/output/grid_meter.h solver/output/monthly.h solver/output/results_reader.h
    solver/output/sinks.h
    solver/output/summary.h
    solver/run/check.h solver/run/run.h solver/run/sweep.h)
foreach(h IN LISTS DCTWIN_PUBLIC_HEADERS)
  get_filename_component(dir ${h} DIRECTORY)
  install(FILES ${PROJECT_SOURCE_DIR}/${h} DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dctwin/${dir})
endforeach()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/models/ DESTINATION ${CMAKE_INSTALL_INCLUDEDIR}/dctwin/models
        FILES_MATCHING PATTERN "*.h")

# 3. data, scripts, documentation
set(DCTWIN_INSTALL_SHARE_DIR ${CMAKE_INSTALL_DATADIR}/dctwin)
install(DIRECTORY ${PROJECT_SOURCE_DIR}/data/catalog ${PROJECT_SOURCE_DIR}/data/facilities
                  ${PROJECT_SOURCE_DIR}/data/scenarios ${PROJECT_SOURCE_DIR}/data/sweeps
                  ${PROJECT_SOURCE_DIR}/data/telemetry
        DESTINATION ${DCTWIN_INSTALL_SHARE_DIR}/data)
install(FILES ${PROJECT_SOURCE_DIR}/scripts/report.py DESTINATION ${DCTWIN_INSTALL_SHARE_DIR}/scripts)
# Slurm job scripts (docs/sweep-format.md): sbatch PREFIX/share/dctwin/scripts/sweep_slurm.sbatch
install(PROGRAMS ${PROJECT_SOURCE_DIR}/scripts/sweep_slurm.sbatch ${PROJECT_SOURCE_DIR}/scripts/merge_slurm.sbatch
        DESTINATION ${DCTWIN_INSTALL_SHARE_DIR}/scripts)
install(FILES ${PROJECT_SOURCE_DIR}/README.md ${PROJECT_SOURCE_DIR}/CHANGELOG.md ${PROJECT_SOURCE_DIR}/LICENSE
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
install(DIRECTORY ${PROJECT_SOURCE_DIR}/docs DESTINATION ${CMAKE_INSTALL_DOCDIR})

# 4. find_package(dctwin): dctwin::solver (links dctwin::models) and the dependencies the static
# library needs at link time
set(DCTWIN_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/dctwin)
set(DCTWIN_INSTALL_DATA_DIR ${DCTWIN_INSTALL_SHARE_DIR}/data)
install(EXPORT dctwinTargets NAMESPACE dctwin:: DESTINATION ${DCTWIN_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/dctwinConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/dctwinConfig.cmake
                              INSTALL_DESTINATION ${DCTWIN_CMAKE_DIR}
                              PATH_VARS DCTWIN_INSTALL_DATA_DIR)
# 0.x: a new minor version may change the API
write_basic_package_version_file(${PROJECT_BINARY_DIR}/dctwinConfigVersion.cmake
                                 VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/dctwinConfig.cmake ${PROJECT_BINARY_DIR}/dctwinConfigVersion.cmake
        DESTINATION ${DCTWIN_CMAKE_DIR})

# 5. the Debian package: cpack -G DEB (build/dctwin_<version>_<arch>.deb). Depends: the shared
# libraries' packages found by dpkg-shlibdeps, plus the Qt platform plugin the GUI loads at run
# time; Recommends: what `dctwin report` runs; Suggests: what building against the library needs.
set(CPACK_PACKAGE_NAME dctwin)
set(CPACK_PACKAGE_VENDOR "dctwin")
set(CPACK_RESOURCE_FILE_LICENSE ${PROJECT_SOURCE_DIR}/LICENSE)  # Apache-2.0
set(CPACK_PACKAGE_CONTACT "dctwin maintainers <dctwin@localhost>")
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "digital twin of liquid-cooled AI data centers")
set(CPACK_PACKAGE_DESCRIPTION
    "dctwin couples the thermal-hydraulic models of CDU loops, cold plates and facility water\n"
    "into one ODE system (SUNDIALS CVODES), resolves every GPU and the jobs on it, follows the\n"
    "power chain and writes HDF5 results. Command line (dctwin), desktop application\n"
    "(dctwin-gui), component catalog, example facilities, scenarios and sweeps, and the static\n"
    "library with its headers and CMake package (find_package(dctwin)).")
string(REPLACE ";" "" CPACK_PACKAGE_DESCRIPTION "${CPACK_PACKAGE_DESCRIPTION}")
set(CPACK_GENERATOR DEB)
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_STRIP_FILES ON)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT)
set(CPACK_DEBIAN_PACKAGE_RELEASE 1)
set(CPACK_DEBIAN_PACKAGE_SECTION science)
set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
set(CPACK_DEBIAN_PACKAGE_DEPENDS "qt6-qpa-plugins")
set(CPACK_DEBIAN_PACKAGE_RECOMMENDS "python3, python3-h5py, python3-numpy, python3-matplotlib, fonts-dejavu-core")
set(CPACK_DEBIAN_PACKAGE_SUGGESTS
    "cmake, g++, libsundials-dev, libhdf5-dev, zlib1g-dev, libyaml-cpp-dev, libeigen3-dev, hdf5-tools")
include(CPack)
