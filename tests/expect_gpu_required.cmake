# Runs PROGRAM with ARGS ('|'-separated) under LADDER_REQUIRE_GPU=1 and requires that it
# does not skip: exit 0 where a GPU is usable, exit 1 with the reason and a line naming the
# variable where none is. Right on a GPU machine and on one without, never exit 77.
#   cmake -DPROGRAM=... -DARGS=--m|33 -P expect_gpu_required.cmake
string(REPLACE "|" ";" arguments "${ARGS}")
set(ENV{LADDER_REQUIRE_GPU} 1)
execute_process(COMMAND "${PROGRAM}" ${arguments}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(rc STREQUAL "0")
  message(STATUS "exit code 0: a GPU is usable here")
elseif(rc STREQUAL "1" AND out MATCHES "error: [^\n]*\n[^\n]*LADDER_REQUIRE_GPU is set")
  message(STATUS "exit code 1 with the reason, as LADDER_REQUIRE_GPU asks:\n${out}")
else()
  message(FATAL_ERROR "exit code ${rc}; expected 0 (a GPU) or 1 naming LADDER_REQUIRE_GPU "
                      "(no usable GPU); output:\n${out}")
endif()
