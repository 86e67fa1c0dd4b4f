// The CSVs the scripts write under results/ (model picks, Stream-K's reads), as the tests that
// hold the C++ to them read them. Needs LADDER_SOURCE_DIR, the repository's root.
#pragma once

#include <catch2/catch.hpp>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace ladder::test {

// The rows of a CSV a script wrote under results/, each split at its commas, after checking that
// the file opens and starts with `header`.
inline std::vector<std::vector<std::string>> script_rows(const std::string& path,
                                                         const std::string& header) {
  std::ifstream file(LADDER_SOURCE_DIR "/" + path);
  REQUIRE(file);
  std::string line;
  std::getline(file, line);
  REQUIRE(line == header);
  std::vector<std::vector<std::string>> rows;
  while (std::getline(file, line)) {
    std::stringstream cells(line);
    rows.emplace_back();
    for (std::string cell; std::getline(cells, cell, ',');) rows.back().push_back(cell);
  }
  return rows;
}

}  // namespace ladder::test
