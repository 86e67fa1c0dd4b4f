# Runs stage 04 with one __syncthreads() dropped (--drop-sync DROP: load or compute) under
# compute-sanitizer racecheck, and passes only when racecheck reports the race as an error
# in its summary line, e.g. "RACECHECK SUMMARY: 2 hazards displayed (1 error, 1 warning)".
# Without it the sanitizer tests' "0 hazards" would prove nothing. Where the program finds
# no GPU its skip line passes through, and the test's SKIP_REGULAR_EXPRESSION shows it as
# Skipped.
#   cmake -DSANITIZER=compute-sanitizer -DPROGRAM=.../04_gpu_shared_tiled -DDROP=load
#         -P expect_races.cmake
execute_process(COMMAND "${SANITIZER}" --tool racecheck "${PROGRAM}" --m 64 --n 64 --k 64
                        --tile 16 --policy square --drop-sync ${DROP} --reps 1 --warmup 0
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE out)
if(out MATCHES "skipped: no usable CUDA device")
  message(STATUS "${out}")
  return()
endif()
# The program's own exit code says nothing here: a race may or may not spoil the result.
if(NOT out MATCHES "RACECHECK SUMMARY: ([0-9]+) hazards? displayed \\(([0-9]+) errors?, ")
  message(FATAL_ERROR "no RACECHECK SUMMARY line (exit code ${rc}); output:\n${out}")
endif()
if(CMAKE_MATCH_2 EQUAL 0)
  message(FATAL_ERROR "racecheck reported no race error with the barrier after the ${DROP} "
                      "step dropped; output:\n${out}")
endif()
message(STATUS "racecheck reported the race, as it must:\n${out}")
