"""The app ends when its terminal, or the connection `agentui web` serves it through, goes away,
even when the app's main thread cannot end it.

SIGHUP normally does it (core/support/termination.py), but the kernel hands a process's signal to any
of its threads, and Python runs the handler only on the main thread. Seen: the terminal went
away, Textual's writer thread died on it, the main thread blocked for ever on the writer's
full queue, the handler never ran, and the input thread spun on the dead terminal for half an
hour. `agentui web`'s apps get no SIGHUP at all: each talks to the server through pipes, and
when the server ended (Ctrl+C twice, a crash) the app ran on with nobody at the other end.

This thread sleeps in poll() with no event asked for, which wakes only on a hang-up (a
terminal's, or a pipe's whose other end closed); then every sandbox is killed and the process
exits with SIGHUP's status.
"""

from __future__ import annotations

import os
import select
import signal
import stat
import sys
import threading

from agentui.core.support.termination import stop_running_sandboxes

# What textual-serve (agentui web) sets for each browser tab's app: it talks through pipes.
WEB_DRIVER = "textual.drivers.web_driver:WebDriver"


def served_to_a_browser() -> bool:
    return os.environ.get("TEXTUAL_DRIVER") == WEB_DRIVER


def exit_when_the_app_is_cut_off() -> bool:
    """Watch what the app talks through: its terminal (stdin), or under `agentui web` both
    pipes (the server closing either, or ending, ends the app). False when there is neither."""
    if served_to_a_browser():
        return exit_when_the_terminal_hangs_up(sys.stdin.fileno(), sys.stdout.fileno())
    return exit_when_the_terminal_hangs_up(sys.stdin.fileno())


def exit_when_the_terminal_hangs_up(*fds: int) -> bool:
    """Start watching `fds` (terminals or pipes); False when none is either."""
    watcher = select.poll()
    watched = [fd for fd in fds if _can_hang_up(fd)]
    for fd in watched:
        watcher.register(fd, 0)  # no event asked for: only POLLHUP / POLLERR / POLLNVAL wake it
    if not watched:
        return False

    def watch() -> None:
        open_fds = len(watched)
        while True:
            for fd, events in watcher.poll():
                if events & select.POLLNVAL:
                    # The process closed it itself: no hang-up, nothing left to watch there.
                    watcher.unregister(fd)
                    open_fds -= 1
                    if not open_fds:
                        return
                elif events & (select.POLLHUP | select.POLLERR):
                    stop_running_sandboxes()
                    os._exit(128 + signal.SIGHUP)

    threading.Thread(target=watch, name="terminal-watch", daemon=True).start()
    return True


def _can_hang_up(fd: int) -> bool:
    try:
        return os.isatty(fd) or stat.S_ISFIFO(os.fstat(fd).st_mode)
    except OSError:  # closed
        return False
