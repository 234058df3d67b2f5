"""The tools agents get in the app and `agentui run`: ask_user, fork, wait and python."""

from __future__ import annotations

from agentui.core.tools.ask_user import ASK_USER
from agentui.core.tools.fork import FORK, WAIT
from agentui.core.tools.python import PythonToolConfig, python_tool
from agentui.core.tools.registry import ToolRegistry


def builtin_tools(python: PythonToolConfig | None = None) -> ToolRegistry:
    """A new registry of the built-in tools (`Runtime`'s own default is ask_user alone)."""
    return ToolRegistry([ASK_USER, FORK, WAIT, python_tool(python)])
