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

// check_memory_fits against this machine's host memory; no check where /proc/meminfo
// cannot be read (not Linux).
void require_host_memory(const std::string& problem, std::uint64_t bytes);

// check_memory_fits against the free memory of the current GPU (cudaMemGetInfo).
// In memory_budget_on_device.cpp, part of ladder_harness_gpu: only GPU programs can call it.
void require_device_memory(const std::string& problem, std::uint64_t bytes);

}  // namespace ladder
