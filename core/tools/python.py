"""python: the model runs code in a sandboxed process, with fork/wait/ask_user at hand.

The tool needs the person's approval by default (`needs_approval`); `Runtime(approve_all=True)`
(the `--yes` flag) or `PythonToolConfig(needs_approval=False)` runs it without asking. It keeps
its own timeout, which does not count time paused or spent waiting on subagents or the person,
so the loop's tool timeout does not apply to it.

The sandbox is bubblewrap and Landlock where they work, else Landlock alone, else limited
(see sandbox_mode.py); the person's approval prompt says what this tool's sandbox blocks here
(`PythonTool.describe_sandbox`, measured on a thread). Building the tool guards agentui's own
process (not dumpable, a subreaper: see core/support/process_guard.py) before any code runs.
"""

from __future__ import annotations

import sys
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated

import anyio.to_thread
from pydantic import BaseModel, ConfigDict, Field

from agentui.core.support import process_guard
from agentui.core.tools.sandbox import SandboxLimits, SandboxRun
from agentui.core.tools.sandbox_mode import SandboxChoice, SandboxSetting, choose_sandbox
from agentui.core.tools.sandbox_settings import (
    DEFAULT_MAX_PROCESSES,
    DEFAULT_MEMORY_MB,
    MAX_PROCESSES,
    MIN_PROCESSES,
)
from agentui.core.tools.tool import Tool, ToolContext

DESCRIPTION = """Run Python 3 code in a new sandboxed process and return what it prints \
(stdout and stderr together); the value of a final expression is printed too. Each call starts \
from scratch in an empty temporary directory: nothing carries over between calls. Limits: \
{timeout_s:g} s of running time, {cpu_s} s of CPU, {memory_mb} MB of memory, about \
{max_output_bytes} bytes of output (the middle of longer output is cut), {max_processes} \
processes and threads.
Ready to use in the code, without import:
- fork(prompt, profile=None) -> handle: start a subagent on a self-contained task; it works \
in parallel. `profile` names an agent profile for it (e.g. 'critic', whose result is JSON).
- wait(handle) -> str: wait for that subagent's result (raises AgentError if it failed or was \
stopped).
- ask_user(question) -> str | None: ask the person and wait (None if they decline)."""


class PythonToolConfig(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    timeout_s: float = Field(60.0, gt=0)  # running time: not paused, not waiting on requests
    cpu_s: int = Field(30, ge=1)
    memory_mb: int = Field(1024, ge=32)  # address space, so generous; per process
    # Processes and threads together, in the sandbox's own user namespace ([sandbox]).
    max_processes: int = Field(DEFAULT_MAX_PROCESSES, ge=MIN_PROCESSES, le=MAX_PROCESSES)
    tree_memory_mb: int = Field(DEFAULT_MEMORY_MB, ge=64)  # all of it, where a cgroup allows
    max_output_bytes: int = Field(20_000, ge=100)
    needs_approval: bool = True
    executable: str = sys.executable  # the interpreter agentui runs on
    # None: AGENTUI_SANDBOX, else auto (the most this machine offers); landlock: not bwrap;
    # limited: neither.
    sandbox: SandboxSetting | None = None


class PythonArguments(BaseModel):
    model_config = ConfigDict(extra="forbid")

    code: Annotated[str, Field(description="The Python code to run, as a script.", min_length=1)]


@dataclass(frozen=True)
class PythonTool(Tool):
    """The python tool, which says what its own sandbox (its settings, its interpreter) blocks
    here, for the person's approval."""

    sandbox: Callable[[], SandboxChoice] = lambda: SandboxChoice(reason="no sandbox chosen")

    async def describe_sandbox(self) -> str:
        """Measured once per process by starting the sandbox: on a thread, never the loop."""
        choice = await anyio.to_thread.run_sync(self.sandbox)
        return choice.summary()  # one line for the approval; config show says all


def python_tool(config: PythonToolConfig | None = None) -> Tool:
    config = config or PythonToolConfig()
    process_guard.guard_this_process()

    def chosen() -> SandboxChoice:
        return choose_sandbox(config.sandbox, executable=config.executable)

    # What the sandbox blocks is measured by starting it (a fraction of a second): begun now,
    # on a thread, so the first approval prompt, which says it, most likely finds it ready.
    threading.Thread(target=chosen, name="sandbox-probe", daemon=True).start()
    limits = SandboxLimits(
        timeout_s=config.timeout_s,
        cpu_s=config.cpu_s,
        memory_mb=config.memory_mb,
        max_output_bytes=config.max_output_bytes,
        max_processes=config.max_processes,
        tree_memory_mb=config.tree_memory_mb,
    )

    async def run(arguments: BaseModel, context: ToolContext) -> str:
        assert isinstance(arguments, PythonArguments)
        choice = await anyio.to_thread.run_sync(chosen)
        sandbox = SandboxRun(
            limits,
            context.services,
            executable=config.executable,
            sandbox=choice,
        )
        return await sandbox.run(arguments.code)

    return PythonTool.from_model(
        PythonArguments,
        run,
        name="python",
        description=DESCRIPTION.format(**config.model_dump()),
        no_timeout=True,
        needs_approval=config.needs_approval,
        sandbox=chosen,
    )
