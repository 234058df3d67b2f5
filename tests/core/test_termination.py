"""A second SIGTERM/SIGHUP ends agentui at once, whatever the orderly end is waiting on."""

from __future__ import annotations

import signal
import subprocess
import sys
import textwrap

TIMEOUT_S = 60  # a safety net against a hung child, never a measurement

STUCK = textwrap.dedent(
    """
    import asyncio, os, signal
    from agentui.core.support.termination import end_on_termination_signals

    async def main():
        # An orderly end that never comes: the stop asked for is never acted on.
        end_on_termination_signals(lambda: None)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(0)
        print("still here after one", flush=True)
        os.kill(os.getpid(), signal.SIGTERM)
        await asyncio.sleep(30)
        print("not reached", flush=True)

    asyncio.run(main())
    """
)


def test_a_second_termination_signal_exits_at_once() -> None:
    done = subprocess.run(
        [sys.executable, "-c", STUCK], capture_output=True, text=True, timeout=TIMEOUT_S
    )
    assert "still here after one" in done.stdout
    assert "not reached" not in done.stdout
    assert done.returncode == 128 + signal.SIGTERM
