# Runs PROGRAM with ARGS ('|'-separated) and requires exit code EXPECT_RC and output
# (stdout and stderr together) matching the regular expression EXPECT_OUTPUT, and, where
# REFUSE_OUTPUT is given, not matching it.
#   cmake -DPROGRAM=... -DARGS=--m|0 -DEXPECT_RC=2 -DEXPECT_OUTPUT=... -P expect_exit.cmake
string(REPLACE "|" ";" arguments "${ARGS}")
execute_process(COMMAND "${PROGRAM}" ${arguments}
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(NOT rc STREQUAL "${EXPECT_RC}")
  message(FATAL_ERROR "exit code ${rc}, expected ${EXPECT_RC}; output:\n${out}")
endif()
if(NOT out MATCHES "${EXPECT_OUTPUT}")
  message(FATAL_ERROR "output does not match '${EXPECT_OUTPUT}':\n${out}")
endif()
if(DEFINED REFUSE_OUTPUT AND out MATCHES "${REFUSE_OUTPUT}")
  message(FATAL_ERROR "output matches '${REFUSE_OUTPUT}':\n${out}")
endif()
message(STATUS "exit code ${rc} and output as expected:\n${out}")
