# `cmake --install build [--prefix P]`: the arcsim CLI, the trace library (reader and writer),
# the capture writer and the CUDA recorder headers, and a package config so that an outside
# CMake project can do
#   find_package(arcsim)   ->  arcsim::trace     trace.h: arc::trace::Reader / Writer (+ error.h)
#                              arcsim::capture   trace_out.h: capture records -> trace file
#                              arcsim::recorder  arc/*.cuh, arc/*.h (reduce.cuh and its headers, the recorder; CUDA) + capture
#                              arcsim::arcsim    the CLI (imported executable)
# Layout: bin/arcsim, lib/libarc_{common,trace,capture}.a, include/arcsim/{trace.h,error.h,
# trace_out.h,arc/*}, lib/cmake/arcsim/, share/arcsim/configs/*.toml (ARCSIM_CONFIG_DIR).
# The libraries are installed as built (static, PIC) and described by a hand-written config
# (cmake/arcsimConfig.cmake.in), so the build tree's targets need no export changes.
include(GNUInstallDirs)
include(CMakePackageConfigHelpers)

set(ARCSIM_INSTALL_CMAKEDIR ${CMAKE_INSTALL_LIBDIR}/cmake/arcsim)
set(ARCSIM_INSTALL_INCDIR ${CMAKE_INSTALL_INCLUDEDIR}/arcsim)

install(TARGETS arcsim RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
install(FILES $<TARGET_FILE:arc_common> $<TARGET_FILE:arc_trace> $<TARGET_FILE:arc_capture>
        DESTINATION ${CMAKE_INSTALL_LIBDIR})
install(FILES ${PROJECT_SOURCE_DIR}/cosim/trace/trace.h ${PROJECT_SOURCE_DIR}/cosim/common/error.h
              ${PROJECT_SOURCE_DIR}/sw/host/trace_out.h
        DESTINATION ${ARCSIM_INSTALL_INCDIR})
# Every header of arc::reduce and the recorder (reduce.cuh includes its neighbours).
install(DIRECTORY ${PROJECT_SOURCE_DIR}/sw/include/arc/ DESTINATION ${ARCSIM_INSTALL_INCDIR}/arc
        FILES_MATCHING PATTERN "*.h" PATTERN "*.cuh")
install(DIRECTORY ${PROJECT_SOURCE_DIR}/cosim/configs/ DESTINATION ${CMAKE_INSTALL_DATADIR}/arcsim/configs
        FILES_MATCHING PATTERN "*.toml")

# Checked builds: consumers of sanitized static libraries must link the sanitizer runtimes.
set(ARCSIM_CONSUMER_LINK_OPTIONS "")
if(ARCSIM_SANITIZE OR ARCSIM_FUZZ)
  set(ARCSIM_CONSUMER_LINK_OPTIONS "-fsanitize=address,undefined")  # CMake links CUDA programs with the host compiler too
endif()
set(ARCSIM_LIB_PREFIX ${CMAKE_STATIC_LIBRARY_PREFIX})
set(ARCSIM_LIB_SUFFIX ${CMAKE_STATIC_LIBRARY_SUFFIX})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/arcsimConfig.cmake.in
  ${PROJECT_BINARY_DIR}/arcsimConfig.cmake INSTALL_DESTINATION ${ARCSIM_INSTALL_CMAKEDIR})
write_basic_package_version_file(${PROJECT_BINARY_DIR}/arcsimConfigVersion.cmake
  VERSION ${PROJECT_VERSION} COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/arcsimConfig.cmake ${PROJECT_BINARY_DIR}/arcsimConfigVersion.cmake
        DESTINATION ${ARCSIM_INSTALL_CMAKEDIR})
