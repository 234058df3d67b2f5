"""A terminal that hangs up ends the app even when the app's main thread cannot.

SIGHUP normally does it (core/termination.py), but the kernel hands a process's signal to any
of its threads, and Python runs the handler only on the main thread. Seen: the terminal went
away, Textual's writer thread died on it, the main thread blocked for ever on the writer's
full queue, the handler never ran, and the input thread spun on the dead terminal for half an
hour. This thread sleeps in poll() with no event asked for, which wakes only on a hang-up;
then every sandbox is killed and the process exits with SIGHUP's status.
"""

from __future__ import annotations

import os
import select
import signal
import threading

from agentui.core.process_guard import stop_every_sandbox


def exit_when_the_terminal_hangs_up(fd: int) -> bool:
    """Start watching `fd` (the app's terminal); False when it is not a terminal."""
    if not os.isatty(fd):
        return False
    watcher = select.poll()
    watcher.register(fd, 0)  # no event asked for: only POLLHUP / POLLERR / POLLNVAL wake it

    def watch() -> None:
        while True:
            for _, events in watcher.poll():
                if events & select.POLLNVAL:
                    return  # the process closed it itself: no hang-up, nothing left to watch
                if events & (select.POLLHUP | select.POLLERR):
                    stop_every_sandbox()
                    os._exit(128 + signal.SIGHUP)

    threading.Thread(target=watch, name="terminal-watch", daemon=True).start()
    return True
