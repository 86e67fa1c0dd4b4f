#include "common/harness/memory_budget.hpp"

#include <cstdio>
#include <fstream>
#include <sstream>

#include "common/errors.hpp"

namespace ladder {
namespace {

std::string gib(std::uint64_t bytes) {
  char text[32];
  std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1ull << 30));
  return text;
}

}  // namespace

void check_memory_fits(const std::string& problem, const std::string& memory,
                       std::uint64_t needed, std::uint64_t available) {
  if (needed > available) {
    throw UsageError(problem + " needs " + gib(needed) + " of " + memory + ", but only " +
                     gib(available) + " is available");
  }
}

std::optional<std::uint64_t> available_host_bytes(const std::string& meminfo) {
  std::istringstream lines(meminfo);
  std::string key;
  std::uint64_t kib = 0;
  std::optional<std::uint64_t> available;
  std::uint64_t swap_free = 0;
  // Lines read "MemAvailable:   24069540 kB".
  while (lines >> key >> kib) {
    if (key == "MemAvailable:") available = kib * 1024;
    if (key == "SwapFree:") swap_free = kib * 1024;
    lines.ignore(64, '\n');
  }
  if (!available) return std::nullopt;
  return *available + swap_free;
}

void require_host_memory(const std::string& problem, std::uint64_t bytes) {
  std::ifstream file("/proc/meminfo");
  std::ostringstream text;
  text << file.rdbuf();
  if (const auto available = available_host_bytes(text.str())) {
    check_memory_fits(problem, "host memory", bytes, *available);
  }
}

}  // namespace ladder
