"""ask_user: the model asks the person a blocking question and waits for the answer."""

from __future__ import annotations

from typing import Annotated

from pydantic import Field

from agentui.core.protocol.person_words import DECLINED
from agentui.core.tools.tool import Tool, ToolContext, tool


@tool(no_timeout=True, interactive=True)
async def ask_user(
    question: Annotated[str, Field(description="The question to put to the person, in full.")],
    context: ToolContext,
) -> str:
    """Ask the person a question and wait for their answer. Use it only when you cannot go on
    without information that only they have. They may decline to answer."""
    answer = await context.services.ask_user(question, "question")
    if answer is None:
        return DECLINED
    return answer


ASK_USER: Tool = ask_user
