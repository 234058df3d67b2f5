"""One run of model-written Python in its own process: start, serve, limit, pause, kill, report.

The process is `python -I` (no environment variables of Python's, no user site, no script
directory on the path) in a fresh temporary directory, with an environment that holds nothing
but a PATH and a locale: no API key, no token. Under bubblewrap and Landlock (see
sandbox_command.py) it sees nothing of the machine but read-only system files and that
directory, has no network and no capability, cannot signal or trace agentui, and has a cap on
its processes; in limited mode it runs as the person, with their files, and only the process
guard stands between it and agentui (see core/support/process_guard.py).

Nothing it starts outlives the run: its whole process tree is killed when the run ends,
processes in a session of their own too (found through their parents; its pid namespace ends
with its first process; an orphan agentui adopted is killed if it lives in the sandbox's user
namespace, never by when it started), and when agentui ends, however it ends.

While it runs, its requests (fork, wait, ask_user; see sandbox_child.py) are served through the
agent's services, its output is read as it comes (the middle is cut past the cap, so the pipe
never fills and blocks it), a watchdog kills it at the wall-clock timeout, and the agent's
pause stops the whole tree (SIGSTOP) until resume (SIGCONT). The timeout counts only time the
code could run: not paused, not waiting on a request.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import shutil
import signal
from dataclasses import dataclass
from typing import Any

import anyio
import anyio.to_thread
from anyio.abc import ByteReceiveStream, ByteSendStream, Process
from anyio.streams.buffered import BufferedByteReceiveStream

from agentui.core.support import process_guard
from agentui.core.support.errors import AgentUIError
from agentui.core.support.process_tree import (
    descendants,
    kill_tree,
    signal_tree,
    user_namespace,
)
from agentui.core.tools import sandbox_cgroup
from agentui.core.tools.active_time import ActiveTime
from agentui.core.tools.output_cap import OutputCap
from agentui.core.tools.sandbox_cgroup import CgroupError, TreeCgroup
from agentui.core.tools.sandbox_command import child_config, command, scrubbed_environment
from agentui.core.tools.sandbox_mode import SandboxChoice
from agentui.core.tools.sandbox_workdir import new_workdir, remove_orphaned_workdirs
from agentui.core.tools.tool import AgentServices, ToolError

CODE_FILE = "main.py"
WORKDIR_PREFIX = "agentui-python-"
MAX_REQUEST_BYTES = 1_000_000
# After the process has gone, how long its output may take to drain (a stray holder of the pipe
# outside the process group must not hold the tool forever).
DRAIN_S = 2.0
REAP_S = 5.0
SETUP_FAILED = 125  # the child's exit status when the sandbox could not be set up
SETUP_FAILED_TEXT = "the sandbox could not be set up, so the code did not run"


@functools.cache
def _remove_workdirs_of_killed_runs() -> None:
    """Once per agentui, before its first run: what a killed agentui's runs left behind."""
    remove_orphaned_workdirs(WORKDIR_PREFIX)


@dataclass(frozen=True, slots=True)
class SandboxLimits:
    timeout_s: float
    cpu_s: int
    memory_mb: int
    max_output_bytes: int
    max_processes: int = 32
    tree_memory_mb: int = 4096  # where a cgroup v2 memory limit can be set


class SandboxRun:
    def __init__(
        self,
        limits: SandboxLimits,
        services: AgentServices,
        *,
        executable: str,
        sandbox: SandboxChoice,
    ) -> None:
        self._limits = limits
        self._services = services
        self._executable = executable
        self._sandbox = sandbox
        self._output = OutputCap(limits.max_output_bytes)
        self._clock = ActiveTime(anyio.current_time)
        self._clock_changed = anyio.Event()
        self._pgid: int | None = None
        self._user_namespace = 0  # the sandbox's, read from /proc when its child is ready
        self._ready = False  # the child said `ready` (once; the code could say it again)
        self._cgroup: TreeCgroup | None = None
        self._stopped = False  # SIGSTOP sent and not yet undone
        self._exited = False  # reaped: its pid may name another process now
        self.pid: int | None = None
        self.timed_out = False
        self.protocol_error: str | None = None
        self.setup_error: str | None = None  # the sandbox failed before the code ran

    async def run(self, code: str) -> str:
        if self._sandbox.problem:
            raise ToolError(self._sandbox.describe())
        process_guard.guard_this_process()  # before any code can look at agentui
        await anyio.to_thread.run_sync(_remove_workdirs_of_killed_runs)
        workdir = await anyio.to_thread.run_sync(new_workdir, WORKDIR_PREFIX)
        try:
            await anyio.Path(workdir, CODE_FILE).write_text(code, encoding="utf-8")
            returncode = await self._run_in(workdir)
        finally:
            with anyio.CancelScope(shield=True):
                await anyio.to_thread.run_sync(shutil.rmtree, workdir, True)
        return self._report(returncode)

    async def _run_in(self, workdir: str) -> int:
        sandbox = self._sandbox
        config = child_config(
            sandbox.mode,
            workdir,
            self._executable,
            landlock=sandbox.landlock,
            cpu_s=self._limits.cpu_s,
            memory_bytes=self._limits.memory_mb << 20,
            max_processes=self._limits.max_processes,
        )
        argv = command(sandbox.mode, sandbox.bwrap, workdir, self._executable, config)
        found = sandbox.protections
        if found is not None and found.process_cap == "cgroup":
            # Said to the person as the cap on its processes (root's only one): without it,
            # no code runs.
            limits = self._limits
            self._cgroup = sandbox_cgroup.create(limits.max_processes, limits.tree_memory_mb << 20)
            if self._cgroup is None:
                raise ToolError(
                    f"{SETUP_FAILED_TEXT}: its cgroup (the cap on its processes) could not be made"
                )
        try:
            return await self._spawn_and_supervise(argv, workdir)
        finally:
            if self._cgroup is not None:
                self._cgroup.remove()

    async def _spawn_and_supervise(self, argv: list[str], workdir: str) -> int:
        # Shielded: a cancel that lands mid-spawn must not lose the handle of a live process;
        # it is delivered at the next await, inside the `try` that kills it.
        with anyio.CancelScope(shield=True):
            process = await anyio.open_process(
                argv,
                cwd=workdir,
                env=scrubbed_environment(workdir),
                start_new_session=True,  # its own session and group, away from agentui's
            )
            self.pid = self._pgid = process.pid
            process_guard.register(process.pid)
        unwatch = self._services.watch_pause(self._on_pause)
        try:
            returncode = await self._supervise(process)
        finally:
            unwatch()
            with anyio.CancelScope(shield=True):
                # Cancelled (the agent was stopped) or done: the tree goes, then we reap.
                self._kill_all()
                with anyio.move_on_after(REAP_S):
                    await process.aclose()
                self._exited = True
                # What lost its parent on the way and was adopted by agentui goes too, if it
                # is the sandbox's (its user namespace): never another child of agentui's.
                process_guard.sweep_orphans(self._user_namespace)
                process_guard.unregister(process.pid)
                # Killed a moment ago, some may still be dying: their zombies are collected
                # now, not at the next call.
                await anyio.to_thread.run_sync(process_guard.reap_when_gone, REAP_S)
        if self._sandbox.bwrap is not None and returncode > 128:
            returncode = 128 - returncode  # bwrap reports death by signal N as exit 128 + N
        return returncode

    async def _supervise(self, process: Process) -> int:
        replies, requests, output = process.stdin, process.stdout, process.stderr
        assert replies is not None and requests is not None and output is not None
        async with anyio.create_task_group() as group:
            drain = anyio.CancelScope()
            group.start_soon(self._pump, output, drain)
            helpers = anyio.CancelScope()

            async def serve_and_watch() -> None:
                with helpers:
                    async with anyio.create_task_group() as inner:
                        inner.start_soon(self._serve, requests, replies)
                        inner.start_soon(self._watchdog)

            group.start_soon(serve_and_watch)
            returncode = await process.wait()
            self._exited = True
            helpers.cancel()
            # What the code started and left behind. The leader is reaped by now (asyncio's
            # child watcher does that at once), but its group id names the group while any
            # member lives; an empty group only answers "no such process". Members that left
            # the group are adopted orphans now: swept when the run ends.
            self._kill_all()
            drain.deadline = anyio.current_time() + DRAIN_S
        return returncode

    # -- the pieces ----------------------------------------------------------------------

    async def _pump(self, output: ByteReceiveStream, scope: anyio.CancelScope) -> None:
        with scope:
            async for chunk in output:
                self._output.feed(chunk)

    async def _watchdog(self) -> None:
        while True:
            remaining = self._limits.timeout_s - self._clock.elapsed()
            if remaining <= 0:
                self.timed_out = True
                self._kill_all()
                return
            changed = self._clock_changed
            if self._clock.running:
                with anyio.move_on_after(remaining):
                    await changed.wait()
            else:
                await changed.wait()

    def _suspend_clock(self) -> None:
        self._clock.suspend()
        self._tick()

    def _resume_clock(self) -> None:
        self._clock.resume()
        self._tick()

    def _tick(self) -> None:
        self._clock_changed.set()
        self._clock_changed = anyio.Event()

    def _on_pause(self, paused: bool) -> None:
        if paused == self._stopped:
            return
        self._stopped = paused
        if paused:
            self._signal(signal.SIGSTOP)
            self._suspend_clock()
        else:
            self._signal(signal.SIGCONT)
            self._resume_clock()

    async def _serve(self, requests: ByteReceiveStream, replies: ByteSendStream) -> None:
        reader = BufferedByteReceiveStream(requests)
        while True:
            try:
                line = await reader.receive_until(b"\n", MAX_REQUEST_BYTES)
            except (anyio.EndOfStream, anyio.IncompleteRead, anyio.BrokenResourceError):
                return
            except anyio.DelimiterNotFound:
                self.protocol_error = f"a request to the runtime was over {MAX_REQUEST_BYTES} bytes"
                self._kill_all()
                return
            self._suspend_clock()
            try:
                reply = await self._handle(line)
            finally:
                self._resume_clock()
            try:
                await replies.send(json.dumps(reply).encode() + b"\n")
            except (anyio.BrokenResourceError, anyio.ClosedResourceError):
                return

    async def _handle(self, line: bytes) -> dict[str, Any]:
        try:
            request = json.loads(line)
            op = request["op"]
        except (ValueError, TypeError, KeyError):
            return {"id": None, "ok": False, "error": "a request that is not valid JSON"}
        reply: dict[str, Any] = {"id": request.get("id"), "ok": True}
        services = self._services
        try:
            if op == "ready" and not self._ready:  # the sandbox is set up; the code runs next
                self._ready = True
                await self._on_ready()
            elif op == "ready":  # the code itself, through the channel: never trusted
                reply.update(ok=False, error="the sandbox is ready already")
            elif op == "fork":
                profile = request.get("profile")
                reply["value"] = services.fork(
                    str(request["prompt"]), profile=None if profile is None else str(profile)
                )
            elif op == "wait":
                outcome = await services.join(str(request["handle"]))
                if outcome.ok:
                    reply["value"] = outcome.describe()
                else:
                    reply.update(ok=False, error=outcome.describe())
            elif op == "ask_user":
                question = str(request["question"])
                reply["value"] = await services.ask_user(question, "question")
            else:
                reply.update(ok=False, error=f"unknown request {op!r}")
        except AgentUIError as exc:
            reply.update(ok=False, error=str(exc))
        except KeyError as exc:
            reply.update(ok=False, error=f"the {op} request lacks {exc}")
        return reply

    async def _on_ready(self) -> None:
        """The sandbox is set up and no code has run: its tree is what agentui started. Its
        user namespace (how its orphans are told from agentui's other children) is read
        from that tree, and the tree goes into its cgroup; a failed move ends the run."""
        root = self._pgid
        if root is None:
            return
        tree = [root, *await anyio.to_thread.run_sync(descendants, root)]
        own = user_namespace(os.getpid())
        namespaces = [user_namespace(pid) for pid in tree]  # bwrap's first stays in agentui's
        self._user_namespace = next((ns for ns in namespaces if ns and ns != own), 0)
        process_guard.note_namespace(root, self._user_namespace)
        if self._cgroup is not None:
            try:
                self._cgroup.add(tree)
            except CgroupError as exc:
                self.setup_error = str(exc)
                self._kill_all()

    def _signal(self, signum: int) -> None:
        """`signum` to the group and, while the root lives, to every process below it."""
        if self._pgid is None:
            return
        if not self._exited:
            signal_tree(self._pgid, signum)
        with contextlib.suppress(ProcessLookupError, PermissionError):  # the group is gone
            os.killpg(self._pgid, signum)

    def _kill_all(self) -> None:
        if self._pgid is None:
            return
        if not self._exited:
            killed = kill_tree(self._pgid)
            killed.pop(self._pgid, None)  # the root is anyio's to reap
            process_guard.reap_later(killed)  # the rest come back to agentui as orphans
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self._pgid, signal.SIGKILL)

    # -- the result ----------------------------------------------------------------------

    def _report(self, returncode: int) -> str:
        output = self._output.text()
        limits = self._limits
        if self.timed_out:
            reason = f"stopped: the code ran longer than its time limit of {limits.timeout_s:g} s"
        elif self.protocol_error is not None:
            reason = f"stopped: {self.protocol_error}"
        elif self.setup_error is not None:
            reason = f"{SETUP_FAILED_TEXT}: {self.setup_error}"
        elif returncode == 0:
            return output if output.strip() else "(the code ran and printed nothing)"
        elif returncode == SETUP_FAILED and "the sandbox could not be set up" in output:
            reason = "the sandbox could not be set up"
        elif returncode == -signal.SIGXCPU:  # sent only by the CPU time limit
            reason = f"stopped: the code used up its CPU time limit of {limits.cpu_s} s"
        elif "BlockingIOError: [Errno 11]" in output and self._sandbox.mode != "limited":
            # fork() or a thread refused: the cap on the sandbox's processes
            reason = f"the code reached its limit of {limits.max_processes} processes"
        elif "MemoryError" in output:
            reason = f"the code ran out of memory: its limit is {limits.memory_mb} MB"
        elif returncode < 0:
            reason = f"the process was killed by {signal.Signals(-returncode).name}"
        else:
            reason = f"exit code {returncode}"
        raise ToolError(f"{output.rstrip()}\n[{reason}]".lstrip("\n"))
