#include "common/harness/memory_budget.hpp"

#include <algorithm>
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

// The whole file; "" where it cannot be read.
std::string read_file(const std::string& name) {
  std::ifstream file(name);
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

// The number a text starts with ("8589934592\n"); nothing for "max\n" or "".
std::optional<std::uint64_t> leading_number(const std::string& text) {
  std::istringstream in(text);
  std::uint64_t value = 0;
  if (!(in >> value)) return std::nullopt;
  return value;
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

std::optional<MemoryCgroup> memory_cgroup(const std::string& proc_self_cgroup) {
  std::istringstream lines(proc_self_cgroup);
  std::string line;
  std::optional<std::string> v2_path;
  // Lines read "hierarchy:controllers:path": "4:memory:/a/b" (v1), "0::/a/b" (v2, no
  // controllers named). Where both kinds are mounted (hybrid), memory is v1's if v1 has it.
  while (std::getline(lines, line)) {
    const std::size_t first = line.find(':');
    if (first == std::string::npos) continue;
    const std::size_t second = line.find(':', first + 1);
    if (second == std::string::npos) continue;
    const std::string controllers = "," + line.substr(first + 1, second - first - 1) + ",";
    const std::string path = line.substr(second + 1);
    if (controllers.find(",memory,") != std::string::npos) {
      return MemoryCgroup{"/sys/fs/cgroup/memory", path, "memory.limit_in_bytes",
                          "memory.usage_in_bytes"};
    }
    if (controllers == ",,") v2_path = path;
  }
  if (!v2_path) return std::nullopt;
  return MemoryCgroup{"/sys/fs/cgroup", *v2_path, "memory.max", "memory.current"};
}

std::optional<std::uint64_t> cgroup_bytes_left(const std::string& limit, const std::string& usage,
                                               const std::string& stat) {
  const std::optional<std::uint64_t> most = leading_number(limit);
  const std::optional<std::uint64_t> used = leading_number(usage);
  if (!most || !used) return std::nullopt;
  // Lines read "inactive_file 123". v1 counts the cgroup's children in total_inactive_file
  // (its inactive_file is the cgroup's own); v2 has only inactive_file, children included.
  std::istringstream lines(stat);
  std::string key;
  std::uint64_t value = 0;
  std::optional<std::uint64_t> total_inactive, inactive;
  while (lines >> key >> value) {
    if (key == "total_inactive_file") total_inactive = value;
    if (key == "inactive_file") inactive = value;
  }
  const std::uint64_t reclaimable = total_inactive.value_or(inactive.value_or(0));
  const std::uint64_t taken = *used - std::min(*used, reclaimable);
  return *most - std::min(*most, taken);
}

void require_host_memory(const std::string& problem, std::uint64_t bytes) {
  std::optional<std::uint64_t> available = available_host_bytes(read_file("/proc/meminfo"));
  if (!available) return;
  if (const std::optional<MemoryCgroup> cgroup = memory_cgroup(read_file("/proc/self/cgroup"))) {
    // The cgroup, then each parent up to the root: a limit on any of them holds for this
    // process. A folder that is not there (a container sees its own cgroup as the root) has
    // no files and no say.
    std::string path = cgroup->path;
    while (true) {
      const std::string folder = cgroup->root + path + "/";
      const std::optional<std::uint64_t> left = cgroup_bytes_left(
          read_file(folder + cgroup->limit_file), read_file(folder + cgroup->usage_file),
          read_file(folder + "memory.stat"));
      if (left) available = std::min(*available, *left);
      const std::size_t slash = path.rfind('/');
      if (slash == std::string::npos || path == "/") break;
      path.erase(slash);
    }
  }
  check_memory_fits(problem, "host memory", bytes, *available);
}

}  // namespace ladder
