"""Memory the app freed goes back to the system.

Streaming allocates and frees a great deal (events, pieces of text, frames); glibc keeps what
was freed for later instead of giving it back, so the process stays at its high-water mark
with much of its heap free. Once a second, after enough events, `malloc_trim` hands free pages
back (cheap when little is free).
"""

from __future__ import annotations

from collections.abc import Callable

RELEASE_AFTER_EVENTS = 20_000  # folded since the last release


def _find_malloc_trim() -> Callable[[int], int] | None:
    """glibc's malloc_trim, or None where the C library has none (macOS, musl)."""
    import ctypes

    # The process's own symbols, the C library's among them: no search for the library
    # (ctypes.util.find_library runs ldconfig, or gcc where that fails, on the event loop).
    try:
        return getattr(ctypes.CDLL(None), "malloc_trim", None)
    except OSError:
        return None


class HeapRelease:
    def __init__(self, malloc_trim: Callable[[int], int] | None = None) -> None:
        self._malloc_trim = malloc_trim  # None: looked up at the first release
        self._looked_up = malloc_trim is not None
        self._events = 0
        self.releases = 0

    def folded(self, events: int) -> None:
        self._events += events

    def every_second(self) -> None:
        """Give what was freed back to the system, after enough events to have freed some."""
        if self._events >= RELEASE_AFTER_EVENTS and not self._looked_up:
            self._malloc_trim, self._looked_up = _find_malloc_trim(), True
        if self._malloc_trim is not None and self._events >= RELEASE_AFTER_EVENTS:
            self._events = 0
            self._malloc_trim(0)
            self.releases += 1
