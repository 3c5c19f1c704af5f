# CUDA is optional. THREADMAP_CUDA=AUTO (default) builds the .cu sources when nvcc is found
# (on PATH, via CUDACXX/CMAKE_CUDA_COMPILER, or in /usr/local/cuda/bin), ON insists, OFF skips.
# No GPU is needed to compile: cudart is linked statically and starts without a driver.
set(THREADMAP_CUDA AUTO CACHE STRING "Build the CUDA executor: AUTO, ON or OFF (default AUTO)")
set_property(CACHE THREADMAP_CUDA PROPERTY STRINGS AUTO ON OFF)

set(THREADMAP_HAS_CUDA OFF)
if(NOT THREADMAP_CUDA STREQUAL "OFF")
  if(NOT CMAKE_CUDA_COMPILER AND NOT DEFINED ENV{CUDACXX})
    find_program(THREADMAP_NVCC nvcc PATHS /usr/local/cuda/bin /opt/cuda/bin NO_CACHE)
    if(THREADMAP_NVCC)
      set(CMAKE_CUDA_COMPILER "${THREADMAP_NVCC}")
    endif()
  endif()
  include(CheckLanguage)
  check_language(CUDA)
  if(CMAKE_CUDA_COMPILER)
    # Turing (sm_75) to Blackwell (sm_100, sm_120), with sm_90 for H100/H200, and PTX of the
    # newest for GPUs after it. Never "native": build machines often have no GPU.
    if(NOT DEFINED CMAKE_CUDA_ARCHITECTURES)
      set(CMAKE_CUDA_ARCHITECTURES 75-real 80-real 86-real 89-real 90-real 100-real 120)
    endif()
    enable_language(CUDA)
    find_package(CUDAToolkit REQUIRED)
    set(THREADMAP_HAS_CUDA ON)
    message(STATUS "threadmap: CUDA ${CMAKE_CUDA_COMPILER_VERSION} found; building the CUDA executor "
                   "for ${CMAKE_CUDA_ARCHITECTURES}")
  elseif(THREADMAP_CUDA STREQUAL "ON")
    message(FATAL_ERROR "THREADMAP_CUDA=ON but no nvcc was found. Install the CUDA toolkit, put nvcc "
                        "on PATH or pass -DCMAKE_CUDA_COMPILER=/path/to/nvcc; or use -DTHREADMAP_CUDA=AUTO.")
  else()
    message(STATUS "threadmap: no nvcc found; building CPU-only (the emulator is the only backend)")
  endif()
else()
  message(STATUS "threadmap: THREADMAP_CUDA=OFF; building CPU-only")
endif()
