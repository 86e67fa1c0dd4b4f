// A kernel ptxas compiles with a "Potential Performance Loss": setmaxnreg with no register cap
// at entry (no __launch_bounds__) is ignored (C7508). scripts/ptxas_guard.sh must stop it
// (tests/CMakeLists.txt).
__global__ void setmaxnreg_ignored(float* out) {
  if (threadIdx.x < 128) {
    asm volatile("setmaxnreg.dec.sync.aligned.u32 40;\n");
  } else {
    asm volatile("setmaxnreg.inc.sync.aligned.u32 232;\n");
  }
  out[threadIdx.x] = static_cast<float>(threadIdx.x);
}
