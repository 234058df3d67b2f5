"""The head and the tail of a long output, with the size of what was cut between: for a
python call's output and an MCP result alike."""

from __future__ import annotations


class OutputCap:
    """The head and the tail of a stream of bytes; what lies between past the cap is counted."""

    def __init__(self, limit: int) -> None:
        self._head_limit = limit * 2 // 3
        self._tail_limit = limit - self._head_limit
        self._head = bytearray()
        self._tail = bytearray()
        self.dropped = 0

    def feed(self, data: bytes) -> None:
        room = self._head_limit - len(self._head)
        if room > 0:
            self._head += data[:room]
            data = data[room:]
        if not data:
            return
        self._tail += data
        excess = len(self._tail) - self._tail_limit
        if excess > 0:
            del self._tail[:excess]
            self.dropped += excess

    def text(self) -> str:
        head = self._head.decode("utf-8", errors="replace")
        tail = self._tail.decode("utf-8", errors="replace")
        if not self.dropped:
            return head + tail
        cut = f"\n[output cut: {self.dropped} bytes in the middle were not shown]\n"
        return head + cut + tail
