# Runs PROGRAM with ARGS ('|'-separated) under LADDER_REQUIRE_GPU=1, with
# LADDER_TEST_COMPUTE_CAPABILITY=CAPABILITY standing in for a GPU older than the one present
# (common/tensor_cores.hpp): a stage this GPU cannot run must skip (exit 77) with its own
# reason, matching EXPECT_OUTPUT, never fail. Without a usable GPU there is nothing to stand in
# for: the test says so and is Skipped (its SKIP_REGULAR_EXPRESSION).
#   cmake -DPROGRAM=... -DARGS=... -DCAPABILITY=80 -DEXPECT_OUTPUT=... -P expect_older_gpu_skip.cmake
string(REPLACE "|" ";" arguments "${ARGS}")
set(ENV{LADDER_REQUIRE_GPU} 1)
set(ENV{LADDER_TEST_COMPUTE_CAPABILITY} ${CAPABILITY})
execute_process(COMMAND "${PROGRAM}" ${arguments}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(out MATCHES "no usable CUDA device|the selected tests need a GPU")
  message(STATUS "skipped: no usable GPU to stand in for an older one:\n${out}")
elseif(NOT rc STREQUAL "77" OR NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "exit code ${rc}; expected 77 and output matching '${EXPECT_OUTPUT}':\n${out}")
else()
  message(STATUS "exit code 77 and the reason, as expected:\n${out}")
endif()
