"""Python's cyclic garbage collector while sitegen works.

A build, a validation or a verification allocates millions of small objects (parsed records,
validated models, page contexts) that live until it ends, and makes few reference cycles. With
the interpreter's default thresholds the collector runs a young collection every 700
allocations and a full one whenever the heap has grown by a quarter, and every full one scans
again every object that was there before the work began: in `sitegen serve` or a test run,
everything earlier builds and their callers hold. Measured on the demo's ChronicleBench, half
of a validation's CPU time was the collector's.

While `working()` is entered, the objects that existed when it began are frozen (kept where no
collection looks: gc.freeze) and the collector runs after 50,000 allocations instead of 700,
fully after 100 of its runs instead of 10. Cycles made meanwhile are still collected; when the
outermost `working()` ends, the thresholds are what they were and the frozen objects are
collectable again. Nothing a build outputs depends on when the collector runs.
"""

from __future__ import annotations

import gc
import threading
from collections.abc import Iterator
from contextlib import contextmanager

THRESHOLDS = (50_000, 20, 100)

_lock = threading.Lock()
_depth = 0
_saved: tuple[int, int, int] | None = None


@contextmanager
def working() -> Iterator[None]:
    """The collector relaxed for the duration of the block (re-entrant, and shared by threads:
    the settings are the process's, restored when the last block entered ends)."""
    global _depth, _saved
    with _lock:
        if _depth == 0:
            _saved = gc.get_threshold()
            gc.freeze()
            gc.set_threshold(*THRESHOLDS)
        _depth += 1
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                assert _saved is not None
                gc.set_threshold(*_saved)
                gc.unfreeze()
