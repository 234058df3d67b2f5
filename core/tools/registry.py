"""The set of tools an agent may call, and running one call to a text outcome."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from agentui.core.providers.base import ToolSpec
from agentui.core.support.errors import AgentUIError
from agentui.core.tools.tool import Tool, ToolContext, ToolError

if TYPE_CHECKING:
    from agentui.core.tools.pending_source import PendingTools


@dataclass(frozen=True, slots=True)
class ToolOutcome:
    content: str
    is_error: bool = False


class ToolRegistry:
    def __init__(self, tools: Iterable[Tool] = ()) -> None:
        self._tools: dict[str, Tool] = {}
        for item in tools:
            self.register(item)
        # Sources whose tools join later (an MCP server still starting): a call to one of their
        # tools waits for it, at most the source's startup time, instead of "unknown tool".
        self.later: list[PendingTools] = []

    def register(self, item: Tool) -> None:
        if item.name in self._tools:
            raise ValueError(f"a tool named {item.name!r} is already registered")
        self._tools[item.name] = item

    def replace(self, item: Tool) -> None:
        """Register `item`, in place of the tool of that name if there is one (an MCP server's
        tool, listed again when the server has restarted)."""
        self._tools[item.name] = item

    def get(self, name: str) -> Tool | None:
        return self._tools.get(name)

    def __iter__(self) -> Iterator[Tool]:
        return iter(self._tools.values())

    def __len__(self) -> int:
        return len(self._tools)

    def names(self) -> list[str]:
        return list(self._tools)

    def subset(self, names: Iterable[str]) -> ToolRegistry:
        """A registry of just these tools (an agent profile's); KeyError names the missing."""
        wanted = list(dict.fromkeys(names))
        missing = [name for name in wanted if name not in self._tools]
        if missing:
            raise KeyError(", ".join(missing))
        return ToolRegistry(self._tools[name] for name in wanted)

    def specs(self) -> list[ToolSpec]:
        return [item.spec for item in self._tools.values()]

    async def execute(
        self, name: str, arguments: dict[str, Any], context: ToolContext
    ) -> ToolOutcome:
        """Run a call. Unknown tools, bad arguments and exceptions become error outcomes."""
        item = self._tools.get(name)
        source = next((s for s in self.later if s.may_offer(name)), None)
        if item is None and source is not None:
            try:
                await source.wait_for([name])
            except AgentUIError as exc:
                return ToolOutcome(str(exc), True)
            item = self._tools.get(name)
        if item is None:
            available = ", ".join(self._tools) or "none"
            return ToolOutcome(f"unknown tool {name!r}; available tools: {available}", True)
        try:
            return ToolOutcome(await item.run(arguments, context))
        except ToolError as exc:
            return ToolOutcome(str(exc), True)
        except Exception as exc:
            return ToolOutcome(f"{name} raised {type(exc).__name__}: {exc}", True)
