# Finds Catch2 2.x, which the unit tests are written for (the single header catch2/catch.hpp,
# our own main). Sets Catch2_FOUND. Where it is missing, warns with what to do; where only
# Catch2 3 is installed (what `apt-get install catch2` gives on Ubuntu 24.04 and Debian 13),
# says so: 3 has other headers and its own main, so it cannot build these tests.
find_package(Catch2 2 QUIET)
if(NOT Catch2_FOUND)
  set(catch2_v3 "")
  foreach(version config IN ZIP_LISTS Catch2_CONSIDERED_VERSIONS Catch2_CONSIDERED_CONFIGS)
    if(version VERSION_GREATER_EQUAL 3 AND NOT catch2_v3)
      set(catch2_v3 "Catch2 ${version} found (${config})")
    endif()
  endforeach()
  if(catch2_v3)
    message(WARNING "${catch2_v3}, but the unit tests are written for Catch2 2.x: they are "
      "not built. Install 2.x beside it and point CMake at it:\n"
      "  git clone --depth 1 --branch v2.13.10 https://github.com/catchorg/Catch2.git /tmp/catch2-src\n"
      "  cmake -S /tmp/catch2-src -B /tmp/catch2-build -DCATCH_BUILD_TESTING=OFF -DCATCH_INSTALL_DOCS=OFF\n"
      "  cmake --install /tmp/catch2-build --prefix $HOME/catch2-v2\n"
      "then configure again with -DCMAKE_PREFIX_PATH=$HOME/catch2-v2 "
      "(e.g. cmake --preset default -DCMAKE_PREFIX_PATH=$HOME/catch2-v2).")
  else()
    message(WARNING "Catch2 2.x not found: the unit tests are not built. "
                    "Install it (Debian: apt-get install catch2) and configure again.")
  endif()
endif()
