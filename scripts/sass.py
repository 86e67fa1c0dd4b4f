"""Reading `cuobjdump -sass` output: each kernel's instructions, per GPU architecture.

The one parser of SASS text, shared by scripts/sass_counts.py and
05_gpu_unrolled/inner_loop_sass.py. cuobjdump prints, for each architecture's code in a
program, a `code for sm_90` line, then each kernel as a `Function : <mangled name>` line
followed by its instructions, one per line: `/*0040*/  @!P0 LDS.U.128 R4, [R2+0x10] ;`.
"""
import collections
import re

ARCHITECTURE = re.compile(r"^\s*code for (sm_\w+)")
INSTRUCTION = re.compile(r"^\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")
PREDICATE = re.compile(r"^@!?U?P\w+\s+")

Function = collections.namedtuple("Function", "architecture name instructions")
Function.__doc__ = "One kernel's code: instructions is a list of (address, text)."


def functions(text):
    """Every kernel in the text, in the order cuobjdump printed them.

    A program holds a kernel once per architecture it was built for, and a kernel that two
    libraries instantiate may appear twice for one architecture: callers choose."""
    found = []
    architecture, current = None, None
    for line in text.splitlines():
        if match := ARCHITECTURE.match(line):
            architecture, current = match.group(1), None
        elif "Function :" in line:
            current = Function(architecture, line.split("Function :")[1].strip(), [])
            found.append(current)
        elif current is not None and (match := INSTRUCTION.match(line)):
            current.instructions.append((int(match.group(1), 16), match.group(2)))
    return found


def mnemonic(instruction):
    """'@!P0 LDS.U.128 R4, [R2+0x10]' -> 'LDS'; 'FFMA R1, R2, R3, R1' -> 'FFMA'."""
    return PREDICATE.sub("", instruction).split()[0].split(".")[0]


def opcode(instruction):
    """The mnemonic, with .128 kept where the access is 128 bits wide: 'LDS.U.128 ...' ->
    'LDS.128', since one 128-bit load does the work of four 32-bit ones. The other suffixes go:
    'HMMA.16816.F32.BF16 ...' -> 'HMMA', 'LDSM.16.MT88.4 ...' -> 'LDSM',
    'HGMMA.64x128x16.F32.BF16 ...' -> 'HGMMA', 'LDGSTS.E.BYPASS.LTC128B.128 ...' -> 'LDGSTS.128'."""
    parts = PREDICATE.sub("", instruction).split()[0].split(".")
    return parts[0] + (".128" if "128" in parts[1:] else "")
