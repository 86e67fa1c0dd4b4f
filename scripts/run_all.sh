#!/usr/bin/env bash
# The main job: configure, build every stage, run them in order, print the ladder tables.
# Stages that need a GPU say why they were skipped when there is none, and a closing line
# points to the tables measured on one (results/, and ladder.py --from-csv to print them).
#   scripts/run_all.sh [options of scripts/ladder.py, e.g. --m 4096 --n 4096 --k 4096]
# Progress goes to stderr (the build's full log to build/run_all.log, printed if the build
# fails); the tables go to stdout. The `default` preset builds with every core (Ninja) for the
# GPU in this machine, or, without one, for one architecture per stage family.
set -euo pipefail
cd "$(dirname "$0")/.."
build_dir=build
log="$build_dir/run_all.log"

# Reads the build's output, keeps all of it in the log and shows that it moves: a line such as
# "build: 57/116 steps (49%), 42 s" every few seconds, rewritten in place on a terminal.
show_progress() {
  local line steps="" last=-10 status
  while true; do
    if IFS= read -r -t 2 line; then
      printf '%s\n' "$line" >>"$log"
      if [[ $line =~ ^\[([0-9]+)/([0-9]+)\] ]]; then
        steps="${BASH_REMATCH[1]}/${BASH_REMATCH[2]} steps ($((100 * BASH_REMATCH[1] / BASH_REMATCH[2]))%), "
      fi
    else
      status=$?
      # A line cut by the timeout (or the output's last line, without a newline) is kept.
      [ -n "$line" ] && printf '%s' "$line" >>"$log"
      ((status > 128)) || break  # end of the output; above 128 the wait timed out
    fi
    if ((SECONDS - last >= 5)); then
      last=$SECONDS
      if [ -t 2 ]; then printf '\rbuild: %s%d s ' "$steps" "$SECONDS" >&2
      else printf 'build: %s%d s\n' "$steps" "$SECONDS" >&2; fi
    fi
  done
  [ -t 2 ] && printf '\n' >&2
  return 0
}

echo "== configure and build (preset 'default', folder $build_dir/) ==" >&2
mkdir -p "$build_dir"
: >"$log"
SECONDS=0
if ! { cmake --preset default && cmake --build --preset default --target stages; } 2>&1 |
     show_progress; then
  cat "$log" >&2
  echo "run_all.sh: the build failed (output above, and in $log)" >&2
  exit 1
fi
echo "build: done in $SECONDS s (log: $log)" >&2
grep -A3 "CMake Warning" "$log" >&2 || true
echo "== run every stage in order ==" >&2
python3 scripts/ladder.py --build "$build_dir" "$@"
