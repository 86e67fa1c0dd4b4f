#include "common/harness/program.hpp"

#include <cstdio>
#include <exception>
#include <new>

#include "common/errors.hpp"

namespace ladder {

int run_program(const char* program, int (*body)(int, char**), int argc, char** argv) {
  try {
    return body(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the options.\n", program, e.what(),
                 program);
    return kExitUsage;
  } catch (const NoDeviceError& e) {
    std::fprintf(stderr, "%s: skipped: no usable CUDA device: %s\n", program, e.what());
    return kExitSkipped;
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: not enough host memory for this problem size\n", program);
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitFailure;
  }
}

}  // namespace ladder
