#include "common/harness/program.hpp"

#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <exception>
#include <new>

#include "common/errors.hpp"
#include "common/harness/gpu_required.hpp"

namespace ladder {

bool gpu_required(const char* variable_value) {
  return variable_value != nullptr && *variable_value != '\0' &&
         std::strcmp(variable_value, "0") != 0;
}

bool gpu_required() { return gpu_required(std::getenv("LADDER_REQUIRE_GPU")); }

int no_usable_gpu(const std::string& prefix, const std::string& message, bool required) {
  if (!required) {
    std::fprintf(stderr, "%sskipped: %s\n", prefix.c_str(), message.c_str());
    return kExitSkipped;
  }
  std::fprintf(stderr,
               "%serror: %s\n%sLADDER_REQUIRE_GPU is set: no usable GPU is a failure here, "
               "not a skip.\n",
               prefix.c_str(), message.c_str(), prefix.c_str());
  return kExitFailure;
}

int run_program(const char* program, const std::function<int(int, char**)>& body, int argc,
                char** argv) {
  try {
    return body(argc, argv);
  } catch (const UsageError& e) {
    std::fprintf(stderr, "%s: error: %s\nRun '%s --help' for the options.\n", program, e.what(),
                 program);
    return kExitUsage;
  } catch (const UnsupportedGpuError& e) {
    // Nothing is broken: this GPU predates the stage. A skip even under LADDER_REQUIRE_GPU.
    std::fprintf(stderr, "%s: skipped: %s\n", program, e.what());
    return kExitSkipped;
  } catch (const NoDeviceError& e) {
    return no_usable_gpu(std::string(program) + ": ",
                         std::string("no usable CUDA device: ") + e.what(), gpu_required());
  } catch (const std::bad_alloc&) {
    std::fprintf(stderr, "%s: error: not enough host memory for this problem size\n", program);
    return kExitUsage;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: error: %s\n", program, e.what());
    return kExitFailure;
  }
}

}  // namespace ladder
