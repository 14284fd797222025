"""The console scripts of the wheel: `brrrc` and `brrr-run`, run from the
bundle installed inside the package (brrr/_bundle)."""

import os
import sys

BUNDLE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "_bundle")


def brrrc():
    exe = os.path.join(BUNDLE, "bin", "brrrc")
    if not os.access(exe, os.X_OK):
        sys.exit(f"brrrc: this brrr package has no compiler at {exe} "
                 "(a source checkout: build it, or install the wheel)")
    os.execv(exe, [exe] + sys.argv[1:])


def brrr_run():
    script = os.path.join(BUNDLE, "bin", "brrr-run")
    if not os.path.isfile(script):
        sys.exit(f"brrr-run: this brrr package has no {script}")
    os.execv(sys.executable, [sys.executable, script] + sys.argv[1:])
