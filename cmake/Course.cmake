# Helpers every chapter uses to register its program, tests and exercise the same way.

set(COURSE_SCRIPTS ${CMAKE_SOURCE_DIR}/scripts)
set(COURSE_CHAPTERS "" CACHE INTERNAL "chapter programs")

# Tests hold correctness and counters, never time; the timeout only stops a hung test. The H200
# suite's slowest tests take a few minutes under compute-sanitizer or ncu (calibration.ncu 106 s):
# those labels get 600 s, every other test 300 s.
set(COURSE_TEST_TIMEOUT 300)
set(COURSE_TOOL_TEST_TIMEOUT 600)

# Optional tools, found once at configure time, on PATH (not in CMake's system folders: a
# python3 the user's shell does not run is not there for them). Without one, the tests that need it
# are registered as skips that say what to install (scripts/skip.sh), so that the test workflow
# passes without them. A tool installed later is found by the next configure (a NOTFOUND result
# is searched again).
find_program(COURSE_PYTHON3 NAMES python3 NO_CMAKE_SYSTEM_PATH
             DOC "python3, for the ncu and calibration tests")
string(CONCAT COURSE_PYTHON3_MISSING "python3 not found: install it (sudo apt-get install python3,"
              " brew install python3), then reconfigure")
if(NOT COURSE_PYTHON3)
  message(STATUS "python3 not found: the ncu and calibration tests that need it will report skipped")
endif()

# course_test(NAME <name> LABELS <labels> [TIMEOUT <seconds>] COMMAND <cmd...>)
# Exit code 77 means skipped (no GPU, no tool): CTest reports it as skipped, never as passed.
function(course_test)
  cmake_parse_arguments(T "" "NAME;TIMEOUT" "LABELS;COMMAND" ${ARGN})
  if(NOT T_TIMEOUT)
    set(T_TIMEOUT ${COURSE_TEST_TIMEOUT})
    if("sanitize" IN_LIST T_LABELS OR "ncu" IN_LIST T_LABELS)
      set(T_TIMEOUT ${COURSE_TOOL_TEST_TIMEOUT})
    endif()
  endif()
  add_test(NAME ${T_NAME} COMMAND ${T_COMMAND})
  set_tests_properties(${T_NAME} PROPERTIES LABELS "${T_LABELS}" SKIP_RETURN_CODE 77
                                            TIMEOUT ${T_TIMEOUT})
endfunction()

# course_skip_test(NAME <name> LABELS <labels> MESSAGE <what is missing, what to install>)
# Registers <name> as a test that reports skipped with the message (a tool it needs is missing).
function(course_skip_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;MESSAGE" ${ARGN})
  course_test(NAME ${T_NAME} LABELS ${T_LABELS} COMMAND ${COURSE_SCRIPTS}/skip.sh ${T_MESSAGE})
endfunction()

# course_python_test(NAME <name> LABELS <labels> COMMAND <script.py> <args...>)
# A test run by python3; a skip that says to install it where python3 was not found.
function(course_python_test)
  cmake_parse_arguments(T "" "NAME" "LABELS;COMMAND" ${ARGN})
  if(COURSE_PYTHON3)
    course_test(NAME ${T_NAME} LABELS ${T_LABELS} COMMAND ${COURSE_PYTHON3} ${T_COMMAND})
  else()
    course_skip_test(NAME ${T_NAME} LABELS ${T_LABELS} MESSAGE "${COURSE_PYTHON3_MISSING}")
  endif()
endfunction()

# course_chapter(<NN_topic> PROGRAM <topic.cu> [sources...] TEST <test_topic.c|.cu> [sources...]
#                [NCU_KERNELS <regex> NCU_ARGS <program args...>]
#                [SANITIZE_ARGS <program args...>] [SIDE_FILES <suffix...>]
#                [LIBS <common layer...>] [GPU_GRADED])
# Builds build/bin/<NN_topic>, linked with course_cuda and LIBS (course_tile, course_gemm), and
# registers the chapter's tests:
#   cpu       usage errors exit 2 (a negative --size told it needs a whole number; a side file of
#             --csv that cannot be written: one test per SIDE_FILES suffix, the program's
#             course_cli listing the same); --list works (and checks the CSV names); the
#             exercise's test linked with solution.cu, and refusing an argument it does not take
#   gpu       <NN_topic> --check
#   sanitize  compute-sanitizer memcheck, racecheck, synccheck and initcheck over --check
#             (or SANITIZE_ARGS: a smaller check where the full one would take minutes there)
#   ncu       the benchmark kernels' shared-memory wavefronts per request equal the model's
#   plot      plot.gp turns the committed results/h200.csv into PNGs
#   exercise  the test linked with exercise.cu (COURSE_EXERCISES=ON)
# A test written in CUDA (test_topic.cu) grades a kernel: it runs as `test --cpu` (label cpu:
# what the CPU can prove, e.g. the model) and `test --gpu` (label gpu: the kernel on the GPU,
# 77 without one), built with relocatable device code so that its kernels call the solution's
# (or the exercise's) __device__ functions. GPU_GRADED: a C test with a GPU part all the same (it
# calls a library's kernels with what the solution's host functions computed).
function(course_chapter chapter)
  cmake_parse_arguments(C "GPU_GRADED" "NCU_KERNELS" "PROGRAM;TEST;NCU_ARGS;SANITIZE_ARGS;SIDE_FILES;LIBS" ${ARGN})
  if(NOT C_SANITIZE_ARGS)
    set(C_SANITIZE_ARGS --check)
  endif()
  set(dir ${CMAKE_CURRENT_SOURCE_DIR})
  add_executable(${chapter} ${C_PROGRAM})
  target_link_libraries(${chapter} PRIVATE course_cuda ${C_LIBS})
  set(COURSE_CHAPTERS ${COURSE_CHAPTERS} ${chapter} CACHE INTERNAL "chapter programs")
  set(bin $<TARGET_FILE:${chapter}>)

  course_test(NAME ${chapter}.usage LABELS cpu
              COMMAND ${COURSE_SCRIPTS}/expect_exit.sh 2 ${bin} --no-such-flag)
  course_test(NAME ${chapter}.usage_variant LABELS cpu
              COMMAND ${COURSE_SCRIPTS}/expect_exit.sh 2 ${bin} --variant no_such_variant)
  course_test(NAME ${chapter}.usage_size LABELS cpu
              COMMAND ${COURSE_SCRIPTS}/expect_exit.sh 2 ${bin} --size -3)
  set_tests_properties(${chapter}.usage_size PROPERTIES PASS_REGULAR_EXPRESSION
                       "exited 2 as expected: .*--size needs a whole number from [0-9]+ to")
  # A side file's name taken by a directory: refused by the parser, before any work (a blocked
  # side file used to fail with exit 1 after the lesson had run).
  foreach(side ${C_SIDE_FILES})
    set(blocked ${CMAKE_BINARY_DIR}/side_files/${chapter}${side})
    file(MAKE_DIRECTORY ${blocked}/x${side}.csv)
    course_test(NAME ${chapter}.usage_csv${side} LABELS cpu
                COMMAND ${COURSE_SCRIPTS}/expect_exit.sh 2 ${bin} --bench --csv ${blocked}/x.csv)
    set_tests_properties(${chapter}.usage_csv${side} PROPERTIES PASS_REGULAR_EXPRESSION
                         "exited 2 as expected: .*the side file [^ ]*/x${side}\\.csv is a directory")
  endforeach()
  course_test(NAME ${chapter}.list LABELS cpu COMMAND ${bin} --list)
  course_test(NAME ${chapter}.check LABELS gpu COMMAND ${bin} --check)
  foreach(tool memcheck racecheck synccheck initcheck)
    course_test(NAME ${chapter}.${tool} LABELS sanitize
                COMMAND ${COURSE_SCRIPTS}/sanitize.sh ${tool} $<TARGET_FILE:course_gpu_probe>
                        ${bin} ${C_SANITIZE_ARGS})
  endforeach()
  if(C_NCU_KERNELS)
    course_python_test(NAME ${chapter}.ncu LABELS ncu
                       COMMAND ${COURSE_SCRIPTS}/ncu_check.py --probe $<TARGET_FILE:course_gpu_probe>
                               --kernels "${C_NCU_KERNELS}" -- ${bin} ${C_NCU_ARGS})
  endif()
  # The chapter's pictures (--picture DIR), where it commits some: what the program draws today.
  if(EXISTS ${dir}/pictures)
    course_test(NAME ${chapter}.pictures LABELS cpu
                COMMAND ${COURSE_SCRIPTS}/picture_check.sh ${bin} ${dir}/pictures
                        ${CMAKE_BINARY_DIR}/picture_check/${chapter})
  endif()
  course_test(NAME ${chapter}.plot LABELS plot
              COMMAND ${COURSE_SCRIPTS}/plot_check.sh ${dir}/plot.gp ${dir}/results/h200.csv
                      ${CMAKE_BINARY_DIR}/plot_check/${chapter})

  # The exercise's test: always against the solution; against the stub when asked.
  set(gpu_graded ${C_TEST})
  list(FILTER gpu_graded INCLUDE REGEX "\\.cu$")
  if(C_GPU_GRADED)
    set(gpu_graded ON)
  endif()
  set(kinds solution)
  if(COURSE_EXERCISES)
    list(APPEND kinds exercise)
  endif()
  foreach(kind ${kinds})
    set(test test_${chapter})
    set(label cpu)
    set(gpu_label gpu)
    if(kind STREQUAL "exercise")
      set(test test_${chapter}_exercise)
      set(label exercise)
      set(gpu_label exercise)
    endif()
    add_executable(${test} ${C_TEST} ${kind}.cu)
    if(gpu_graded)
      target_link_libraries(${test} PRIVATE course_cuda)
      set_target_properties(${test} PROPERTIES CUDA_SEPARABLE_COMPILATION ON)
      course_test(NAME ${chapter}.${kind} LABELS ${label} COMMAND ${test} --cpu)
      course_test(NAME ${chapter}.${kind}_gpu LABELS ${gpu_label} COMMAND ${test} --gpu)
    else()
      target_link_libraries(${test} PRIVATE course_host)
      course_test(NAME ${chapter}.${kind} LABELS ${label} COMMAND ${test})
    endif()
  endforeach()
  # The test takes --cpu or --gpu (a CUDA test) or nothing: anything else is a usage error.
  course_test(NAME ${chapter}.solution_usage LABELS cpu
              COMMAND ${COURSE_SCRIPTS}/expect_exit.sh 2 $<TARGET_FILE:test_${chapter}> --bogus)
endfunction()
