# The CUDA architectures to build for, settled before project() (the top CMakeLists.txt includes
# this file first):
#   1. what the user asked for: -DCMAKE_CUDA_ARCHITECTURES=..., or the CUDAARCHS environment
#      variable (CMake's convention: project() reads it when the cache variable is not set);
#   2. else the GPUs in this machine, as nvidia-smi lists them (CMake's "native" fails on a
#      machine without a GPU);
#   3. else 90: code for sm_90 (the course's reference GPU, the H200) plus its PTX, which newer
#      GPUs compile at load time.
# A request is checked here, before project() hands it to nvcc, whose failure would only say that
# it "is not able to compile a simple test program". Each entry is all, all-major, native, or
# NN[a|f][-real|-virtual] with NN 75 or more (the course needs compute capability 7.5, Turing) and
# known to this nvcc (nvcc --list-gpu-code, --list-gpu-arch).

set(COURSE_MIN_ARCH 75)

# course_nvcc_archs(<code_out> <ptx_out> <nvcc_out>): the NN of this nvcc's sm_NN and compute_NN,
# sorted, and the nvcc asked. The nvcc is found as project() will find it (CMAKE_CUDA_COMPILER,
# CUDACXX, PATH, /usr/local/cuda/bin). Empty lists where it cannot say (no nvcc, or one without
# --list-gpu-code): then only the numbers are checked, and project() finds the rest.
function(course_nvcc_archs code_out ptx_out nvcc_out)
  if(CMAKE_CUDA_COMPILER)
    set(nvcc ${CMAKE_CUDA_COMPILER})
  elseif(NOT "$ENV{CUDACXX}" STREQUAL "")
    separate_arguments(cudacxx NATIVE_COMMAND "$ENV{CUDACXX}")
    list(GET cudacxx 0 nvcc)
  else()
    find_program(nvcc NAMES nvcc PATHS "$ENV{CUDA_PATH}/bin" /usr/local/cuda/bin NO_CACHE)
  endif()
  set(lists "")
  foreach(what code arch)
    set(${what} "")
    if(nvcc)
      execute_process(COMMAND ${nvcc} --list-gpu-${what} OUTPUT_VARIABLE out
                      RESULT_VARIABLE rc ERROR_QUIET)
      if(rc EQUAL 0)
        string(REGEX MATCHALL "_[0-9]+" ${what} "${out}")
        string(REPLACE "_" "" ${what} "${${what}}")
        list(SORT ${what} COMPARE NATURAL)
      endif()
    endif()
  endforeach()
  set(${code_out} "${code}" PARENT_SCOPE)
  set(${ptx_out} "${arch}" PARENT_SCOPE)
  set(${nvcc_out} "${nvcc}" PARENT_SCOPE)
endfunction()

# course_check_archs(<archs> <where they came from>): a FATAL_ERROR that says what to use instead
# for an entry that is malformed, below 7.5 or unknown to this nvcc.
function(course_check_archs archs from)
  if(NOT archs)
    return() # OFF: CMake passes no architecture flag, nvcc builds its default
  endif()
  course_nvcc_archs(code ptx nvcc)
  string(REPLACE ";" " " known "${code}")
  string(CONCAT use "Use, for example, -DCMAKE_CUDA_ARCHITECTURES=86 (or CUDAARCHS=86): 75 Turing, "
                    "80 and 86 Ampere, 89 Ada, 90 Hopper, 100 and 120 Blackwell")
  if(known)
    string(APPEND use "; this nvcc (${nvcc}) builds for ${known}")
  endif()
  get_filename_component(bin "${nvcc}" DIRECTORY)
  foreach(a IN LISTS archs)
    if(a STREQUAL "native" AND EXISTS "${bin}/__nvcc_device_query")
      # What CMake asks to resolve "native"; without a GPU it fails once per target.
      execute_process(COMMAND ${bin}/__nvcc_device_query RESULT_VARIABLE rc OUTPUT_QUIET
                      ERROR_QUIET)
      if(NOT rc EQUAL 0)
        message(FATAL_ERROR "${from} is '${archs}', but 'native' needs a GPU in this machine, "
                            "and there is none. Leave it unset (the course then builds for "
                            "sm_90 + PTX), or name an architecture.\n${use}.")
      endif()
    endif()
    if(a MATCHES "^(all|all-major)$")
      # CMake expands them to every (major) architecture this nvcc builds: with CUDA 12, sm_50 on.
      set(older "")
      set(newer "")
      foreach(c IN LISTS code)
        if(c LESS COURSE_MIN_ARCH)
          list(APPEND older ${c})
        else()
          list(APPEND newer ${c})
        endif()
      endforeach()
      if(older)
        string(REPLACE ";" " " older "${older}")
        message(FATAL_ERROR "${from} is '${archs}': with this nvcc '${a}' includes ${older}, "
                            "older than compute capability 7.5 (Turing), which the course needs. "
                            "List the architectures instead, from these: ${newer}.\n${use}.")
      endif()
      continue()
    endif()
    if(a STREQUAL "native")
      continue()
    endif()
    if(NOT a MATCHES "^([0-9]+)([af]?)(-real|-virtual)?$")
      message(FATAL_ERROR "${from} is '${archs}': '${a}' is not a CUDA architecture. Give a "
                          "list of numbers such as 86, 86-real, 86-virtual or 90a, or all, "
                          "all-major or native.\n${use}.")
    endif()
    set(n ${CMAKE_MATCH_1})
    set(kind ${CMAKE_MATCH_3})
    if(n LESS COURSE_MIN_ARCH)
      math(EXPR major "${n} / 10")
      math(EXPR minor "${n} % 10")
      message(FATAL_ERROR "${from} is '${archs}': '${a}' is compute capability ${major}.${minor}, "
                          "and the course needs compute capability 7.5 (Turing) or newer.\n${use}.")
    endif()
    if(code AND ((NOT kind STREQUAL "-virtual" AND NOT n IN_LIST code) OR
                 (NOT kind STREQUAL "-real" AND NOT n IN_LIST ptx)))
      message(FATAL_ERROR "${from} is '${archs}': this nvcc cannot build for '${a}'.\n${use}.")
    endif()
  endforeach()
endfunction()

# course_detect_arch(<out>): the architectures of the GPUs in this machine that the course and this
# nvcc can build for (a GPU this nvcc does not know gets the newest PTX not above it, which the GPU
# compiles at load time); else 90.
function(course_detect_arch out)
  execute_process(COMMAND nvidia-smi --query-gpu=compute_cap --format=csv,noheader
                  OUTPUT_VARIABLE smi RESULT_VARIABLE rc ERROR_QUIET)
  set(archs "")
  set(ccs "")
  if(rc EQUAL 0)
    string(REGEX MATCHALL "[0-9]+\\.[0-9]+" ccs "${smi}")
    list(REMOVE_DUPLICATES ccs)
    course_nvcc_archs(code ptx nvcc)
    foreach(cc IN LISTS ccs)
      string(REPLACE "." "" a "${cc}")
      if(a LESS COURSE_MIN_ARCH)
        message(WARNING "This machine's GPU (compute capability ${cc}) is older than the course "
                        "needs (7.5, Turing): its GPU parts will report skipped.")
      elseif(code AND NOT a IN_LIST code)
        set(below "")
        foreach(p IN LISTS ptx)
          if(NOT p GREATER a)
            set(below ${p})
          endif()
        endforeach()
        message(STATUS "This nvcc has no sm_${a} (compute capability ${cc}): building for "
                       "sm_${below} + PTX, which that GPU compiles at load time")
        list(APPEND archs ${below})
      else()
        list(APPEND archs ${a})
      endif()
    endforeach()
  endif()
  list(REMOVE_DUPLICATES archs)
  if(archs)
    string(REPLACE ";" ", sm_" names "sm_${archs}")
    message(STATUS "Building for the GPU in this machine: ${names}")
  else()
    set(archs 90)
    set(what "No GPU found")
    if(ccs)
      set(what "No GPU here that the course can build for")
    endif()
    message(STATUS "${what}: building for sm_90 (+PTX). "
                   "Pick yours with -DCMAKE_CUDA_ARCHITECTURES=86 or CUDAARCHS=86 (for example)")
  endif()
  set(${out} "${archs}" PARENT_SCOPE)
endfunction()

if(DEFINED CMAKE_CUDA_ARCHITECTURES)
  course_check_archs("${CMAKE_CUDA_ARCHITECTURES}" "CMAKE_CUDA_ARCHITECTURES")
elseif(NOT "$ENV{CUDAARCHS}" STREQUAL "")
  course_check_archs("$ENV{CUDAARCHS}" "The environment variable CUDAARCHS")
else()
  course_detect_arch(course_arch)
  set(CMAKE_CUDA_ARCHITECTURES "${course_arch}" CACHE STRING "CUDA architectures to build for")
endif()
