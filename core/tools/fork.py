"""fork and wait: the model starts subagents of its own and collects their results."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agentui.core.support.errors import AgentUIError
from agentui.core.tools.tool import Tool, ToolContext, ToolError, tool


@tool(name="fork")
async def fork_tool(
    prompt: Annotated[
        str,
        Field(
            description="The subagent's whole task, self-contained: it sees nothing else.",
            min_length=1,
        ),
    ],
    context: ToolContext,
    profile: Annotated[
        str | None,
        Field(
            description="An agent profile for the subagent (its instructions, tools, model "
            "and answer format, e.g. 'critic' for a JSON review); leave out for a plain "
            "subagent. An unknown name fails with the list of profiles.",
            min_length=1,
        ),
    ] = None,
) -> str:
    """Start a subagent that works on `prompt` in parallel with you. Returns its handle at once;
    call `wait` with the handle to get its result. Use it for independent parts of your work."""
    try:
        handle = context.services.fork(prompt, profile=profile)
    except AgentUIError as exc:
        raise ToolError(str(exc)) from None
    return f"started subagent {handle}; call wait with handle {handle!r} for its result"


# Waiting on a subagent takes as long as its work does: the tool timeout must not cut it.
@tool(name="wait", no_timeout=True)
async def wait_tool(
    handle: Annotated[str, Field(description="A handle that fork returned.", min_length=1)],
    context: ToolContext,
) -> str:
    """Wait for a subagent you forked to finish and return its result (or how it failed)."""
    try:
        outcome = await context.services.join(handle)
    except AgentUIError as exc:
        raise ToolError(str(exc)) from None
    if not outcome.ok:
        raise ToolError(outcome.describe())
    return outcome.describe()


FORK: Tool = fork_tool
WAIT: Tool = wait_tool
