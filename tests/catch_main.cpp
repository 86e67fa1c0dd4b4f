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
#endif

namespace {

bool selection_needs_gpu(Catch::Session& session) {
  const Catch::Config& config = session.config();
  const auto selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  for (const auto& test : selected) {
    for (const auto& tag : test.lcaseTags) {
      if (tag == "gpu") return true;
    }
  }
  return false;
}

std::string gpu_unavailable_reason() {
#ifdef LADDER_HAVE_CUDA
  return ladder::no_device_reason();
#else
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
  if (!only_listing && selection_needs_gpu(session)) {
    if (const std::string reason = gpu_unavailable_reason(); !reason.empty()) {
      return ladder::no_usable_gpu("", "the selected tests need a GPU: " + reason,
                                   ladder::gpu_required());
    }
  }
  const int failures = session.run();
  // 77 failed assertions must not read as "skipped".
  return failures == ladder::kExitSkipped ? 1 : failures;
}
