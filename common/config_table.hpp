// The tilings, variants and ablations a stage is built with: a table of entries by name, the
// first the default. A stage's X_configs() lists the names and its launch_X(config, ...) finds
// the entry named. An entry is any struct with a `name`: NamedLaunch where a launch function is
// all it holds, a stage's own struct where it holds more (stage 12's sizes for its wave rule,
// stage 15's shared memory).
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ladder {

template <class Launch>
struct NamedLaunch {
  const char* name;
  Launch launch;  // a pointer to the function that launches this entry's kernel
};

template <class Table>
std::vector<std::string> config_names(const Table& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

// The entry called `name`, or std::invalid_argument that says `missing` (what the stage has
// not: "stage 11 has no tiling"), the name, and the names there are. `missing` is a C string:
// a std::string parameter would be a temporary at every call, and g++ 13 warns that the
// reference returned might point into it (-Wdangling-reference).
template <class Table>
const auto& find_config(const Table& table, const std::string& name, const char* missing) {
  std::string names;
  for (const auto& entry : table) {
    if (name == entry.name) return entry;
    names += std::string(" ") + entry.name;
  }
  throw std::invalid_argument(std::string(missing) + " '" + name + "'; there are:" + names);
}

}  // namespace ladder
