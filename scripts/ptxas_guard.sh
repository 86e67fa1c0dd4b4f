#!/bin/sh
# The compiler launcher of the tensor-core stages (ladder_stage in CMakeLists.txt): runs the
# compile command it is given and fails it where ptxas reports a "Potential Performance Loss",
# which it prints as information, not as a warning: wgmma.mma_async serialized (C7510 and its
# kin) or setmaxnreg ignored (C7508) would undo what the Hopper stages teach, so it stops the
# build.
# So does a warpgroup.arrive that ptxas injects (C7519), which ptxas does not call a loss: in
# stage 20's swapped TF32 kernel it came with an empty wgmma group closing each slice's, and
# the slices stopped overlapping.
# A device-debug build (-G) serialises wgmma and ignores setmaxnreg on purpose: not checked.
#   scripts/ptxas_guard.sh nvcc ARGS...
case " $* " in
  *" -G "* | *" --device-debug "*) exec "$@" ;;
esac
log=$(mktemp) || exit 1
trap 'rm -f "$log"' EXIT
trap 'exit 1' INT TERM
"$@" >"$log" 2>&1
status=$?
cat "$log" >&2
if [ "$status" -eq 0 ] && grep -q -e "Potential Performance Loss" -e "(C7519)" "$log"; then
  echo "ptxas_guard.sh: error: ptxas reports a performance loss (above) in a tensor-core stage" >&2
  status=1
fi
exit "$status"
