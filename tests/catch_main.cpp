// The test runner's main: Catch2 v2 has no "skip", so test cases that need a GPU carry the
// tag [gpu], and when the selected tests include one and no usable GPU exists, the runner
// exits with 77, which ctest shows as Skipped (SKIP_RETURN_CODE 77), or with 1 where
// LADDER_REQUIRE_GPU says this machine must run them. A working GPU too old for the selected
// stages ([sm80], [sm90]) is always a skip. Such a test can never pass by
// returning early.
#define CATCH_CONFIG_RUNNER
#include <catch2/catch.hpp>

#include <algorithm>
#include <cstdio>
#include <string>

#include "common/harness/gpu_required.hpp"
#include "common/harness/program.hpp"
#ifdef LADDER_HAVE_CUDA
#include "common/device_probe.hpp"
#include "common/errors.hpp"
#include "common/tensor_cores.hpp"
#endif

namespace {

// How many of the selected test cases carry the tag, and how many do not.
struct TagCount {
  int with = 0;
  int without = 0;
};

TagCount count_tag(Catch::Session& session, const std::string& wanted) {
  const Catch::Config& config = session.config();
  const auto selected =
      Catch::filterTests(Catch::getAllTestCasesSorted(config), config.testSpec(), config);
  TagCount count;
  for (const auto& test : selected) {
    const auto& tags = test.lcaseTags;
    const bool tagged = std::find(tags.begin(), tags.end(), wanted) != tags.end();
    (tagged ? count.with : count.without) += 1;
  }
  return count;
}

bool selection_has_tag(Catch::Session& session, const std::string& wanted) {
  return count_tag(session, wanted).with > 0;
}

// Why the selected tests cannot run here: no usable GPU (`unusable`); or, with a working GPU,
// `too_old`: for tests tagged [sm80] (the tensor-core stages) a GPU older than compute
// capability 8.0, for tests tagged [sm90] (TMA and wgmma, the Hopper stages, code for sm_90a
// alone) a GPU other than 9.0. Both empty: they can run.
struct Unavailable {
  std::string unusable;
  std::string too_old;
};

Unavailable gpu_unavailable(Catch::Session& session) {
#ifdef LADDER_HAVE_CUDA
  if (std::string reason = ladder::no_device_reason(); !reason.empty()) return {reason, ""};
  try {
    if (selection_has_tag(session, "sm80")) ladder::require_bf16_tensor_cores();
  } catch (const ladder::UnsupportedGpuError& e) {
    return {"", e.what()};
  }
  const TagCount hopper = count_tag(session, "sm90");
  try {
    if (hopper.with > 0) ladder::require_hopper();
  } catch (const ladder::UnsupportedGpuError& e) {
    // This process runs the whole selection, so it is skipped as a whole. ctest runs each
    // test case alone, and the sanitizer runs keep [sm90] apart; a hand-made selection that
    // mixes them is told how to run the rest.
    return {"", std::string(e.what()) +
                    (hopper.without > 0 ? "; the tests without [sm90] run here with the test spec ~[sm90]"
                                        : "")};
  }
  return {};
#else
  (void)session;
  return {"built without CUDA support", ""};
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
    const Unavailable unavailable = gpu_unavailable(session);
    if (!unavailable.unusable.empty()) {
      return ladder::no_usable_gpu("", "the selected tests need a GPU: " + unavailable.unusable,
                                   ladder::gpu_required());
    }
    if (!unavailable.too_old.empty()) {
      // A skip even under LADDER_REQUIRE_GPU: the GPU works, it predates these stages.
      std::fprintf(stderr, "skipped: the selected tests cannot run on this GPU: %s\n",
                   unavailable.too_old.c_str());
      return ladder::kExitSkipped;
    }
  }
  const int failures = session.run();
  // 77 failed assertions must not read as "skipped".
  return failures == ladder::kExitSkipped ? 1 : failures;
}
