# cmake --install BUILD --prefix P: the programs, the libraries, the public headers
# (include/mtf/ only), the CMake package (find_package(mtf) -> mtf::mtf), mtf.pc, the
# schema and the programs' help as man pages and text.
include(CMakePackageConfigHelpers)

# mtf::mtf is the one target consumers link: the INTERFACE target `mtf` (the same target
# the build uses as mtf::mtf) over the public API's library and every static library
# behind it. Installed, its include directory is include/ (the public headers only).
# Every library made by mtf_add_library (a new stage or format is installed without a
# change here), in the order they were defined.
get_property(MTF_LIBRARIES GLOBAL PROPERTY MTF_LIBRARIES)
install(TARGETS mtf ${MTF_LIBRARIES} EXPORT mtfTargets
        ARCHIVE DESTINATION ${CMAKE_INSTALL_LIBDIR}
        INCLUDES DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})
install(TARGETS mtf_cli mtf-gen RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
if(TARGET mtf_mpi)
  install(TARGETS mtf_mpi RUNTIME DESTINATION ${CMAKE_INSTALL_BINDIR})
endif()
install(DIRECTORY ${PROJECT_SOURCE_DIR}/include/mtf DESTINATION ${CMAKE_INSTALL_INCLUDEDIR})

set(MTF_CMAKE_DIR ${CMAKE_INSTALL_LIBDIR}/cmake/mtf)
install(EXPORT mtfTargets NAMESPACE mtf:: DESTINATION ${MTF_CMAKE_DIR})
configure_package_config_file(${PROJECT_SOURCE_DIR}/cmake/mtfConfig.cmake.in
                              ${PROJECT_BINARY_DIR}/mtfConfig.cmake
                              INSTALL_DESTINATION ${MTF_CMAKE_DIR})
# 0.x: a minor version may change the API.
write_basic_package_version_file(${PROJECT_BINARY_DIR}/mtfConfigVersion.cmake
                                 COMPATIBILITY SameMinorVersion)
install(FILES ${PROJECT_BINARY_DIR}/mtfConfig.cmake ${PROJECT_BINARY_DIR}/mtfConfigVersion.cmake
        DESTINATION ${MTF_CMAKE_DIR})

# pkg-config: the static libraries in link order, their dependencies as Requires (a static
# library's dependencies are needed by every program that links it). A library is defined
# after the libraries it uses (CMake add_subdirectory order: model, stages, formats,
# registry, API), so the reverse of the definition order puts each before its uses.
set(MTF_PC_LIBS "")
set(MTF_LINK_ORDER ${MTF_LIBRARIES})
list(REVERSE MTF_LINK_ORDER)
foreach(lib ${MTF_LINK_ORDER})
  string(APPEND MTF_PC_LIBS " -l${lib}")
endforeach()
# Relocatable: the prefix is found from the .pc file's own place (cmake --install --prefix).
set(MTF_PC_PREFIX "\${pcfiledir}")
string(REPLACE "/" ";" MTF_PC_DEPTH "${CMAKE_INSTALL_LIBDIR}/pkgconfig")
foreach(part ${MTF_PC_DEPTH})
  string(APPEND MTF_PC_PREFIX "/..")
endforeach()
configure_file(${PROJECT_SOURCE_DIR}/cmake/mtf.pc.in ${PROJECT_BINARY_DIR}/mtf.pc @ONLY)
install(FILES ${PROJECT_BINARY_DIR}/mtf.pc DESTINATION ${CMAKE_INSTALL_LIBDIR}/pkgconfig)

# The help of every command, rendered at build time from the programs themselves.
set(MTF_HELP_DIR ${PROJECT_BINARY_DIR}/help)
add_custom_command(
  OUTPUT ${MTF_HELP_DIR}/mtf.1 ${MTF_HELP_DIR}/mtf-gen.1 ${MTF_HELP_DIR}/mtf-help.txt
         ${MTF_HELP_DIR}/mtf-gen-help.txt
  COMMAND ${CMAKE_COMMAND} -DMTF=$<TARGET_FILE:mtf_cli> -DMTF_GEN=$<TARGET_FILE:mtf-gen>
          -DOUT=${MTF_HELP_DIR} -DVERSION=${PROJECT_VERSION}
          -P ${PROJECT_SOURCE_DIR}/cmake/render_help.cmake
  DEPENDS mtf_cli mtf-gen ${PROJECT_SOURCE_DIR}/cmake/render_help.cmake
  COMMENT "Rendering the help of mtf and mtf-gen as man pages")
add_custom_target(mtf_help ALL DEPENDS ${MTF_HELP_DIR}/mtf.1 ${MTF_HELP_DIR}/mtf-gen.1)
install(FILES ${MTF_HELP_DIR}/mtf.1 ${MTF_HELP_DIR}/mtf-gen.1
        DESTINATION ${CMAKE_INSTALL_MANDIR}/man1)
# docs/*.md: the API (api.md) and whatever else is documented there.
file(GLOB MTF_DOCS CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/docs/*.md)
install(FILES ${MTF_HELP_DIR}/mtf-help.txt ${MTF_HELP_DIR}/mtf-gen-help.txt ${MTF_DOCS}
        DESTINATION ${CMAKE_INSTALL_DOCDIR})
