import fcntl
import os
import sys
import threading
import time

from gpu_turns import Turns

path = sys.argv[1]


def can(lock, file=path):
    """Whether another holder could take `lock` on the file now."""
    fd = os.open(file, os.O_RDWR | os.O_CREAT)
    try:
        fcntl.flock(fd, lock | fcntl.LOCK_NB)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def until(cond):
    """Polls cond, for at most a minute (a thread's progress, not a timing)."""
    for _ in range(6000):
        if cond():
            return True
        time.sleep(0.01)
    return False


a = Turns(path)
a.start()
print("shared: a timing is kept out:", not can(fcntl.LOCK_EX))
with a.cpu():
    print("cpu phase: a timing may start:", can(fcntl.LOCK_EX))

timer = Turns(path)
started, release = threading.Event(), threading.Event()
seen = {}


def time_it():
    with timer.exclusive():
        started.set()
        release.wait()


t = threading.Thread(target=time_it)
t.start()
print("waiting timing holds the gate:", until(lambda: not can(fcntl.LOCK_SH, path + ".gate")))
print("waiting timing keeps new shared turns out:",
      not started.is_set() and not can(fcntl.LOCK_SH, path + ".gate"))
with a.cpu():
    print("timing started once the shared turn was given up:", started.wait(60))
    print("during the timing, no shared turn:", not can(fcntl.LOCK_SH))
    release.set()
    t.join()
print("after the cpu phase, the shared turn is back:",
      a.shared_held and not can(fcntl.LOCK_EX))

os.environ.pop("BRRR_GPU_TURNS", None)
none = Turns(os.environ.get("BRRR_GPU_TURNS"))
none.start()
with none.cpu(), none.exclusive():
    pass
print("without BRRR_GPU_TURNS: no lock file, no-ops:", none.gpu is None and not none.shared_held)
