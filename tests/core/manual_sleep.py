"""A sleep moved by hand, for a service that waits (the stall watch): time passes only when
the test says, on a frozen clock."""

from __future__ import annotations

import anyio

from agentui.core.support.clock import FrozenClock

GUARD_S = 10.0  # a safety net against a hung test, never a measurement


class ManualSleep:
    """`elapse()` waits until the service sleeps, moves the frozen clock to its wake time and
    wakes it."""

    def __init__(self, clock: FrozenClock) -> None:
        self.clock = clock
        self.asked: list[float] = []
        self._asleep = anyio.Event()
        self._wake = anyio.Event()

    async def __call__(self, seconds: float) -> None:
        self.asked.append(seconds)
        self._asleep.set()
        await self._wake.wait()
        self._wake = anyio.Event()

    async def asleep(self) -> None:
        """Wait until the service has looked and gone to sleep."""
        with anyio.fail_after(GUARD_S):
            await self._asleep.wait()

    async def elapse(self) -> float:
        """Let the service's sleep pass; the seconds it slept."""
        await self.asleep()
        self._asleep = anyio.Event()
        seconds = self.asked[-1]
        self.clock.advance(seconds)
        self._wake.set()
        return seconds
