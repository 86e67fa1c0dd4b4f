// The test runner's main: Catch2 v2 has no "skip", so test cases that need a GPU carry the
// tag [gpu], and when the selected tests include one and no usable GPU exists, the runner
// exits with 77, which ctest shows as Skipped (SKIP_RETURN_CODE 77), or with 1 where
// LADDER_REQUIRE_GPU says this machine must run them. Such a test can never pass by
// returning early.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <string>

#include "common/harness/program.hpp"
#ifdef LADDER_HAVE_CUDA
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/tensor_cores.hpp"
#endif

namespace {

bool selection_has_tag(Catch::Session& session, const std::string& wanted) {
  const Catch::Config& config = session.config();
  const auto selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  for (const auto& test : selected) {
    for (const auto& tag : test.lcaseTags) {
      if (tag == wanted) return true;
    }
  }
  return false;
}

// Why the selected tests cannot run here: no usable GPU, or, for tests tagged [sm80] (BF16
// tensor cores, stages 13 and later), a GPU older than compute capability 8.0.
std::string gpu_unavailable_reason(bool needs_sm80) {
#ifdef LADDER_HAVE_CUDA
  if (std::string reason = ladder::no_device_reason(); !reason.empty()) return reason;
  if (needs_sm80) {
    try {
      ladder::require_bf16_tensor_cores();
    } catch (const ladder::NoDeviceError& e) {
      return e.what();
    }
  }
  return "";
#else
  (void)needs_sm80;
  return "built without CUDA support";
#endif
}

}  // namespace

int main(int argc, char* argv[]) {
  Catch::Session session;
  if (const int status = session.applyCommandLine(argc, argv); status != 0) return status;

  const Catch::ConfigData& data = session.configData();
  const bool only_listing = data.listTests || data.listTestNamesOnly || data.listTags ||
                            data.listReporters || data.showHelp;
  // Listing happens at build time (test discovery): print nothing extra then.
  if (!only_listing && selection_has_tag(session, "gpu")) {
    if (const std::string reason = gpu_unavailable_reason(selection_has_tag(session, "sm80"));
        !reason.empty()) {
      return ladder::no_usable_gpu("", "the selected tests need a GPU: " + reason,
                                   ladder::gpu_required());
    }
  }
  const int failures = session.run();
  // 77 failed assertions must not read as "skipped".
  return failures == ladder::kExitSkipped ? 1 : failures;
}
