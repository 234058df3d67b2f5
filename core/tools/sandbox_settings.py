"""The [sandbox] section of the settings file: the limits on a python call's whole tree.

[sandbox]
max_processes = 32   # processes and threads together, counted in the sandbox's own
                     # user namespace (so only its own), or by its cgroup (root too);
                     # also bounds its memory: each process has the python tool's
                     # memory limit (address space)
memory_mb = 4096     # the whole tree's memory, where a cgroup v2 limit can be set
                     # (else only the limit per process holds)
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

DEFAULT_MAX_PROCESSES = 32
DEFAULT_MEMORY_MB = 4096
# The sandbox's keeper and the code are two; a few more for a subprocess or a thread pool.
MIN_PROCESSES = 4
MAX_PROCESSES = 4096


class SandboxSettings(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    max_processes: int = Field(
        DEFAULT_MAX_PROCESSES,
        ge=MIN_PROCESSES,
        le=MAX_PROCESSES,
        description="Processes the python tool's sandbox may run at once.",
    )
    memory_mb: int = Field(
        DEFAULT_MEMORY_MB,
        ge=64,
        le=1 << 24,
        description="Memory, in MB, the python tool's sandbox may take.",
    )
