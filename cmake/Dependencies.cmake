# Third-party dependencies, all from Debian packages (scripts/setup.sh installs them).
#
# Header-only CLI11, nlohmann-json and doctest may instead come from .deps/include, where
# scripts/device-stage.sh copies this machine's Debian headers (an ignored folder, never
# committed) so they can travel to a machine with no package registry (the GPU check).
# The window (GLFW, Dear ImGui, libepoxy, GLM) is optional: THREADMAP_GUI=AUTO builds it
# when all are found, ON insists, OFF leaves it out. OpenBLAS is not linked: the CPU reference
# opens libopenblas.so.0 when it first multiplies (kernels/timing/cpu_reference.cpp), and
# without it multiplies with its own blocked loop, and says so.
set(THREADMAP_GUI AUTO CACHE STRING "Build the window and offscreen rendering: AUTO, ON or OFF (default AUTO)")
set_property(CACHE THREADMAP_GUI PROPERTY STRINGS AUTO ON OFF)

find_package(Threads REQUIRED)
find_package(PkgConfig)

set(THREADMAP_STAGED_INCLUDE ${PROJECT_SOURCE_DIR}/.deps/include)
function(threadmap_header_only target header)
  if(TARGET ${target})
    return()
  endif()
  find_path(staged_dir ${header} PATHS ${THREADMAP_STAGED_INCLUDE} NO_DEFAULT_PATH NO_CACHE)
  if(NOT staged_dir)
    message(FATAL_ERROR "${header} not found: install the Debian package (scripts/setup.sh), or run "
                        "scripts/device-stage.sh on a machine that has it and carry .deps/")
  endif()
  add_library(${target} INTERFACE IMPORTED GLOBAL)
  target_include_directories(${target} INTERFACE ${staged_dir})
  message(STATUS "threadmap: ${header} from ${staged_dir}")
endfunction()

find_package(nlohmann_json 3 QUIET)
threadmap_header_only(nlohmann_json::nlohmann_json nlohmann/json.hpp)
find_package(CLI11 QUIET)
threadmap_header_only(CLI11::CLI11 CLI/CLI.hpp)
find_package(doctest QUIET)
if(NOT doctest_FOUND)  # doctest_discover_tests comes from doctest's own CMake module
  list(APPEND CMAKE_MODULE_PATH ${PROJECT_SOURCE_DIR}/.deps/cmake)
endif()
threadmap_header_only(doctest::doctest doctest/doctest.h)

# Boost.Context: the fibers a block's threads run as when its kernel has barriers
# (kernels/model). Debian's library has the assembly (fcontext) flavour only.
find_package(Boost 1.74 REQUIRED COMPONENTS context)

set(THREADMAP_HAS_GUI OFF)
if(NOT THREADMAP_GUI STREQUAL "OFF")
  if(PkgConfig_FOUND)
    pkg_check_modules(EPOXY QUIET IMPORTED_TARGET epoxy)
    pkg_check_modules(IMGUI QUIET IMPORTED_TARGET imgui)  # Requires: stb (libimgui.a needs it)
  endif()
  find_package(glfw3 3.3 QUIET)
  find_package(glm QUIET)
  if(EPOXY_FOUND AND IMGUI_FOUND AND glfw3_FOUND AND glm_FOUND)
    set(THREADMAP_HAS_GUI ON)
  elseif(THREADMAP_GUI STREQUAL "ON")
    message(FATAL_ERROR "THREADMAP_GUI=ON but GLFW 3.3, Dear ImGui, libepoxy or GLM is missing: run "
                        "scripts/setup.sh, or use -DTHREADMAP_GUI=AUTO")
  else()
    message(STATUS "threadmap: GLFW, Dear ImGui, libepoxy or GLM missing; building without the window "
                   "and offscreen rendering (threadmap map, bench and devices only)")
  endif()
endif()

# Clang 15 and LLVM 15 (libclang-15-dev, llvm-15-dev, libclang-cpp15-dev) and libseccomp:
# learners' own kernels (`--source`, the kernel editor), compiled in-process and run in a
# locked-down child. AUTO builds them when all are found; without them `--source` says so.
set(THREADMAP_SOURCE AUTO CACHE STRING "Build learners' kernels (Clang 15 JIT): AUTO, ON or OFF (default AUTO)")
set_property(CACHE THREADMAP_SOURCE PROPERTY STRINGS AUTO ON OFF)
set(THREADMAP_HAS_SOURCE OFF)
if(NOT THREADMAP_SOURCE STREQUAL "OFF")
  set(llvm_root /usr/lib/llvm-15)
  find_path(THREADMAP_CLANG_INCLUDE clang/CodeGen/CodeGenAction.h PATHS ${llvm_root}/include NO_DEFAULT_PATH)
  find_library(THREADMAP_CLANG_CPP clang-cpp PATHS ${llvm_root}/lib NO_DEFAULT_PATH)
  find_library(THREADMAP_LLVM LLVM-15 PATHS ${llvm_root}/lib NO_DEFAULT_PATH)
  if(PkgConfig_FOUND)
    pkg_check_modules(SECCOMP QUIET IMPORTED_TARGET libseccomp)
  endif()
  if(THREADMAP_CLANG_INCLUDE AND THREADMAP_CLANG_CPP AND THREADMAP_LLVM AND SECCOMP_FOUND)
    set(THREADMAP_HAS_SOURCE ON)
  elseif(THREADMAP_SOURCE STREQUAL "ON")
    message(FATAL_ERROR "THREADMAP_SOURCE=ON but Clang 15, LLVM 15 or libseccomp is missing: run scripts/setup.sh")
  else()
    message(STATUS "threadmap: Clang 15, LLVM 15 or libseccomp missing; building without learners' kernels")
  endif()
endif()
