"""Tools that join a runtime's registry some time after it starts (an MCP server's, once the
server is ready), and an agent profile that names such tools before they are there.

An agent whose profile names a tool that is not in the registry yet, but that a source may
still add, starts anyway: its run waits for the tool before its first model call (at most the
source's startup time), then has it, or fails with one message naming the source and why.
"""

from __future__ import annotations

from collections.abc import Sequence

from agentui.core.tools.pending_source import PendingTools, ToolsUnavailableError
from agentui.core.tools.registry import ToolRegistry


class ToolsToCome:
    """Tools of a profile that are not in the registry yet; `arrive()` waits for them and adds
    them to the agent's own registry (the one its loop reads at each model call)."""

    def __init__(
        self,
        registry: ToolRegistry,
        agents_tools: ToolRegistry,
        later: dict[str, PendingTools],
        needed_by: str,
    ) -> None:
        self._registry = registry
        self._agents_tools = agents_tools
        self._later = later
        self._needed_by = needed_by

    async def arrive(self) -> None:
        """Wait for the tools, then add them; ToolsUnavailableError when one did not come."""
        sources: dict[int, tuple[PendingTools, list[str]]] = {}
        for name, source in self._later.items():
            sources.setdefault(id(source), (source, []))[1].append(name)
        try:
            for source, names in sources.values():
                await source.wait_for(names)
        except ToolsUnavailableError as exc:
            raise ToolsUnavailableError(
                f"{self._needed_by} needs {', '.join(self._later)}: {exc}"
            ) from None
        for name in self._later:
            found = self._registry.get(name)
            if found is not None and self._agents_tools.get(name) is None:
                self._agents_tools.register(found)


def named_tools(
    registry: ToolRegistry,
    names: Sequence[str],
    sources: Sequence[PendingTools],
    needed_by: str,
) -> tuple[ToolRegistry, ToolsToCome | None, list[str]]:
    """The tools of `registry` that `names` (a profile's) name; those a source may still add
    (None when every one is here); and the names neither has nor may offer."""
    later: dict[str, PendingTools] = {}
    missing: list[str] = []
    for name in dict.fromkeys(names):
        if registry.get(name) is not None:
            continue
        source = next((s for s in sources if s.may_offer(name)), None)
        if source is None:
            missing.append(name)
        else:
            later[name] = source
    here = registry.subset(name for name in names if registry.get(name) is not None)
    to_come = ToolsToCome(registry, here, later, needed_by) if later else None
    return here, to_come, missing
