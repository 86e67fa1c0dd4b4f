// Whether a problem fits this machine's memory, asked before anything is allocated. Linux
// overcommits: an allocation larger than the machine can give succeeds, and the
// out-of-memory killer ends the program later (exit 137) instead of a message. A problem
// that passes every shape rule but cannot fit is bad usage (exit 2), like one too large.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

namespace ladder {

// The decision, apart from where the numbers come from: throws UsageError naming `problem`,
// the bytes needed and the bytes available when `needed` exceeds `available`. No margin above
// it: Linux lets a process allocate more than it can touch and then kills it, which is what
// this check exists to prevent.
void check_memory_fits(const std::string& problem, const std::string& memory,
                       std::uint64_t needed, std::uint64_t available);

// MemAvailable + SwapFree from the text of /proc/meminfo, in bytes; nothing when the text
// lacks MemAvailable.
std::optional<std::uint64_t> available_host_bytes(const std::string& meminfo);

// A container's memory limit is its cgroup's, which can be far below what /proc/meminfo says
// the machine has; past it the kernel's out-of-memory killer ends the program all the same.
// Where this process's cgroup keeps its memory files, from the text of /proc/self/cgroup:
// the v1 memory controller's cgroup ("4:memory:/a/b") where there is one, else the v2 cgroup
// ("0::/a/b"); nothing when the text names neither.
struct MemoryCgroup {
  std::string root;  // where the hierarchy is mounted: /sys/fs/cgroup/memory (v1), /sys/fs/cgroup
  std::string path;  // the cgroup in it: "/a/b", or "/" for the root itself
  std::string limit_file;  // memory.limit_in_bytes (v1), memory.max (v2)
  std::string usage_file;  // memory.usage_in_bytes (v1), memory.current (v2)
};
std::optional<MemoryCgroup> memory_cgroup(const std::string& proc_self_cgroup);

// What a cgroup can still take, in bytes, from the texts of its limit and usage files and of
// its memory.stat: the limit less the usage, where the usage leaves out the file cache the
// kernel reclaims first (inactive_file, as `docker stats` counts it) so that cached files do
// not count as taken. Nothing when the limit is "max" (none) or either text is no number.
std::optional<std::uint64_t> cgroup_bytes_left(const std::string& limit, const std::string& usage,
                                               const std::string& stat);

// check_memory_fits against this machine's host memory: MemAvailable + SwapFree, or less where
// this process's cgroup or one of its parents has a memory limit (the least any of them can
// still take). No check where /proc/meminfo cannot be read (not Linux).
void require_host_memory(const std::string& problem, std::uint64_t bytes);

// check_memory_fits against the free memory of the current GPU (cudaMemGetInfo).
// In memory_budget_on_device.cpp, part of ladder_harness_gpu: only GPU programs can call it.
void require_device_memory(const std::string& problem, std::uint64_t bytes);

}  // namespace ladder
