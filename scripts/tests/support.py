"""What the script tests share: running a script as a reader would, and stand-ins for the
tools and programs it calls (a stage manifest, stage programs, ncu, cuobjdump), so that the
tests need no GPU, no build and no CUDA tools."""
import json
import os
import re
import subprocess
import sys
import tempfile
import textwrap
import unittest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCRIPTS = os.path.join(REPO, "scripts")
FIXTURES = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fixtures")
NO_GPU = 77
# The stage folders, by their pages: a folder a renamed stage left behind (holding only files
# git ignores) has none.
STAGES = sorted(name for name in os.listdir(REPO) if re.match(r"^\d\d_", name)
                and os.path.isfile(os.path.join(REPO, name, "README.md")))

# A stage program's --csv header, as the harness prints it.
CSV_HEADER = "stage,variant,role,problem,device,median_ms,min_ms,runs,rate,unit,pct_of_ceiling,verified"

sys.path.insert(0, SCRIPTS)  # for the tests that call a module's functions directly


class ScriptTest(unittest.TestCase):
    """Each test gets a fresh folder; tools made with make_tool are the only ones on the PATH."""

    def setUp(self):
        folder = tempfile.TemporaryDirectory()
        self.addCleanup(folder.cleanup)
        self.folder = folder.name
        self.tools = os.path.join(self.folder, "tools")
        os.mkdir(self.tools)

    def run_script(self, script, *args, python_path=None):
        """Runs REPO/script with this Python, the PATH holding only the stand-in tools."""
        environment = {"PATH": self.tools, "PYTHONDONTWRITEBYTECODE": "1"}
        if python_path:
            environment["PYTHONPATH"] = python_path
        return subprocess.run([sys.executable, os.path.join(REPO, script), *args],
                              capture_output=True, text=True, env=environment, timeout=60)

    def make_program(self, name, stdout="", stderr="", exit_code=0, folder=None):
        """An executable that prints what it is given and exits with exit_code."""
        path = os.path.join(folder or self.folder, name)
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\nimport sys\n"
                    f"sys.stdout.write({stdout!r})\nsys.stderr.write({stderr!r})\n"
                    f"sys.exit({exit_code})\n")
        os.chmod(path, 0o755)
        return path

    def make_tool(self, name, stdout="", stderr="", exit_code=0):
        return self.make_program(name, stdout, stderr, exit_code, folder=self.tools)

    def make_manifest(self, stages):
        """BUILD/stages.json with these entries (defaults for the fields not given); returns BUILD."""
        build = os.path.join(self.folder, "build")
        os.makedirs(build, exist_ok=True)
        defaults = {"part": 1, "kind": "gemm", "gpu": True, "ladder": [], "bench": [],
                    "profile": [], "search": []}
        with open(os.path.join(build, "stages.json"), "w") as f:
            json.dump([{**defaults, **stage} for stage in stages], f)
        return build

    def write(self, name, text):
        path = os.path.join(self.folder, name)
        with open(path, "w") as f:
            f.write(textwrap.dedent(text))
        return path

    def assert_clear_failure(self, done, exit_code, words):
        """Exit code as given, no traceback, and the last line of stderr says what went wrong."""
        self.assertNotIn("Traceback", done.stderr)
        self.assertEqual(done.returncode, exit_code, done.stderr)
        lines = done.stderr.strip().splitlines()
        self.assertTrue(lines, "nothing on stderr")
        self.assertIn(words, lines[-1])


# A device line as DeviceInfo::describe() writes it, with both peaks (Part 4's programs).
DEVICE = "Test GPU (sm_90, 1 SMs, 1 GiB, L2 1 MB, FP32 peak 60.0 TFLOP/s, BF16 peak 900.0 TFLOP/s)"
CUBLAS_FP32 = "cuBLAS SGEMM FP32"
CUBLAS_BF16 = "cuBLAS BF16 (FP32 accumulate)"
CUBLAS_TF32 = "cuBLAS TF32 (FP32 accumulate)"
CUBLASLT_FP8 = "cuBLASLt FP8 (E4M3, FP32 accumulate)"


def csv_rows(stage, rows, problem="A 64x64 * B 64x64", device="Test GPU (1 SMs)", header=True):
    """Program output: the header, then one line per (variant, role, rate) of a GEMM."""
    lines = [CSV_HEADER] if header else []
    for variant, role, rate in rows:
        lines.append(f"{stage},\"{variant}\",{role},{problem},\"{device}\","
                     f"1.0,1.0,3,{rate},GFLOP/s,,yes")
    return "\n".join(lines) + "\n"


def fp32_and_tensor_core_programs(problem="A 64x64 * B 64x64"):
    """Stand-in output of an FP32 stage (12) and a tensor-core stage (13, whose baseline is 12's
    kernel on the rounded inputs), each with its own ceiling: {program: its CSV text}."""
    return {
        "12_gpu": csv_rows("12_gpu", [("fp32 tiled", "stage", "45000"),
                                      (CUBLAS_FP32, "ceiling", "50000")], problem, DEVICE),
        "13_gpu": csv_rows("13_gpu", [("12's kernel, rounded inputs", "baseline", "44000"),
                                      ("wmma 16x16x16", "stage", "66000"),
                                      ("wmma 16x16x16, 2 warps", "stage", "132000"),
                                      (CUBLAS_BF16, "ceiling", "660000")], problem, DEVICE),
    }
