"""Turns on the GPU for processes that share it, so that several models can
be exported and compiled side by side while each timing has the card to
itself.

Every process whose environment names a lock file in $BRRR_GPU_TURNS takes
part: it holds a shared turn while it uses the GPU (its float64 reference,
its checks, torch.compile's warm-up), gives it up for work that needs only
the CPU (`with TURNS.cpu():` around an export or a compile), and holds the
card alone while it times (`with TURNS.exclusive():`). A timing waits for
the shared turns held at that moment to end and keeps new ones from
starting (a turnstile: a second lock file that a timing holds exclusively
while it waits), so timings are not starved. Without $BRRR_GPU_TURNS every
call is a no-op and a process runs as it always did.

The locks are flock(2) locks on the two files, released by the kernel when
a process exits, however it exits.
"""

import contextlib
import fcntl
import os


class Turns:
    def __init__(self, path):
        self.path = path
        self.gpu = self.gate = None
        self.shared_held = False
        if path:
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            self.gpu = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
            self.gate = os.open(path + ".gate", os.O_RDWR | os.O_CREAT, 0o644)

    def _take_shared(self):
        # Through the gate, so that a waiting timing goes first.
        fcntl.flock(self.gate, fcntl.LOCK_SH)
        fcntl.flock(self.gpu, fcntl.LOCK_SH)
        fcntl.flock(self.gate, fcntl.LOCK_UN)
        self.shared_held = True

    def _drop_shared(self):
        fcntl.flock(self.gpu, fcntl.LOCK_UN)
        self.shared_held = False

    def start(self):
        """Takes the shared turn a process holds by default."""
        if self.gpu is not None and not self.shared_held:
            self._take_shared()

    @contextlib.contextmanager
    def cpu(self):
        """CPU-only work: other processes may time meanwhile."""
        held = self.gpu is not None and self.shared_held
        if held:
            self._drop_shared()
        try:
            yield
        finally:
            if held:
                self._take_shared()

    @contextlib.contextmanager
    def exclusive(self):
        """The card alone: no other process in a shared or exclusive turn."""
        if self.gpu is None:
            yield
            return
        held = self.shared_held
        if held:
            self._drop_shared()
        fcntl.flock(self.gate, fcntl.LOCK_EX)
        try:
            fcntl.flock(self.gpu, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(self.gpu, fcntl.LOCK_UN)
        finally:
            fcntl.flock(self.gate, fcntl.LOCK_UN)
            if held:
                self._take_shared()


TURNS = Turns(os.environ.get("BRRR_GPU_TURNS"))
