// The variants a stage is built with: a table of entries by name, the first the default;
// X_configs() lists the names, launch_X(config, ...) finds the entry. An entry is any struct
// with a `name`: NamedLaunch, or a stage's own struct where it holds more.
#pragma once

#include <stdexcept>
#include <string>
#include <vector>

namespace ladder {

template <class Launch>
struct NamedLaunch {
  const char* name;
  Launch launch;  // the function that launches this entry's kernel
};

template <class Table>
std::vector<std::string> config_names(const Table& table) {
  std::vector<std::string> names;
  for (const auto& entry : table) names.emplace_back(entry.name);
  return names;
}

// The entry called `name`, or std::invalid_argument that says `missing` ("stage 11 has no
// tiling"), the name and the names there are. A C string: g++ 13 warns that the reference
// returned might point into a temporary std::string.
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
