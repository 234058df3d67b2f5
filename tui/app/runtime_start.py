"""The app's runtime, from settings validated after the first frame.

The app asks `prepare` from the thread that loads the runtime's modules, once its first frame
is drawn: the settings are validated there (pydantic and their models load with them), the
provider is built (an SDK is slow to import), and what the app needs of them comes
back. A bad setting raises ConfigError there; the app closes its screen and says it on the shell
(exit 2). The runtime itself is made on the event loop (`runtime`), once that thread is done.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, NamedTuple

# The assembly (and the providers' modules it brings) loads with the runtime, after the first
# frame: `prepare` runs in the thread that loads the runtime's modules.
if TYPE_CHECKING:
    from agentui.core.config.attention import AttentionSettings
    from agentui.core.monologue.config import MonologueConfig
    from agentui.core.runtime import Runtime
    from agentui.tui.app.provider_switch import ProviderSwitch
    from agentui.tui.cli.assemble import Assembly, ProviderOnce


class Prepared(NamedTuple):  # made before the first frame: see first_frame.py
    """What the app takes from the validated settings before its runtime starts."""

    monologue: MonologueConfig
    provider_switch: ProviderSwitch  # the palette's "Switch provider/model…"
    # How the person is called back when an agent waits (None: the default, the bell).
    attention: AttentionSettings | None = None


class RuntimeStart:
    """`settle` gives the assembly (it validates the settings, unless that was done before the
    screen opened); `prepare` and then `runtime` are called once each, in that order (`check`
    when the app ended before them)."""

    def __init__(self, settle: Callable[[], Assembly]) -> None:
        self._settle = settle
        self._assembly: Assembly | None = None
        self._provider: ProviderOnce | None = None

    def check(self) -> None:
        """The settings validated, if `prepare` has not done it: the app quit before its
        runtime started is still told of a bad one. Raises ConfigError."""
        if self._assembly is None:
            self._assembly = self._settle()

    def prepare(self) -> Prepared:
        """Raises AgentUIError (ConfigError) for a bad setting, a bad script or option."""
        from agentui.tui.app.provider_switch import ProviderSwitch
        from agentui.tui.cli.assemble import ProviderOnce, monologue_config

        assembly = self._assembly = self._settle()  # validated here, after the first frame
        switch = ProviderSwitch(assembly)
        self._provider = ProviderOnce(assembly, built=switch.remember)
        self._provider.get()
        enabled = assembly.loaded.config.monologue.enabled
        config = assembly.loaded.config
        return Prepared(monologue_config(assembly, enabled=enabled), switch, config.attention)

    def runtime(self) -> Runtime:
        from agentui.tui.cli.assemble import build_runtime  # loaded by `prepare`

        assert self._assembly is not None and self._provider is not None, "prepare() first"
        return build_runtime(self._assembly, self._provider.get())
