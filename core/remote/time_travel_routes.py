"""The HTTP API's time travel (core/agent/steps.py): rewind an agent to one of its steps, or
fork a new root from one. `create_app` adds these routes to its own.

    GET  /agent/{agent_id}/steps                                       -> [StepRow, ...]
    POST /agent/{agent_id}/rewind   {"step": 3}                        -> {"success": true}
    POST /agent/{agent_id}/fork     {"step": 3, "instructions": null}  -> {"agent_id": "a9"}

A refusal (no such step, a deleted agent, a scene's own agent) is a 409 in the runtime's words,
as every command's is. A rewound live agent's `agent:rewound` event comes once its run ended.
"""

from __future__ import annotations

from fastapi import FastAPI
from pydantic import BaseModel, ConfigDict, Field

from agentui.core.remote.api_models import StartedTask, Success
from agentui.core.runtime import Runtime


class StepChoice(BaseModel):
    """A step of the agent, by its number (`agentui steps` lists them)."""

    model_config = ConfigDict(extra="forbid")  # a misspelt field is reported, not ignored

    step: int = Field(ge=0)


class ForkChoice(StepChoice):
    """A step to fork from, and the fork's own instructions (None: the agent's at the step)."""

    instructions: str | None = None


class StepRow(BaseModel):
    """One step of an agent, as `agentui steps --json` lists it."""

    step: int
    kind: str  # task, model, tool, answer, steer
    seq: int  # the conversation:changed event that made it
    messages: int  # the conversation's length at the step
    summary: str
    set_aside: bool  # a later rewind went back before it


def add_time_travel_routes(app: FastAPI, runtime: Runtime) -> None:
    @app.get("/agent/{agent_id}/steps", summary="An agent's steps, to rewind or fork from")
    async def steps(agent_id: str) -> list[StepRow]:
        return [
            StepRow(step=s.number, kind=s.kind, seq=s.seq, messages=s.messages,
                    summary=s.summary, set_aside=s.set_aside)
            for s in runtime.steps(agent_id)
        ]  # fmt: skip

    @app.post(
        "/agent/{agent_id}/rewind",
        summary="Take an agent back to one of its steps; it then waits, paused",
    )
    async def rewind(agent_id: str, body: StepChoice) -> Success:
        runtime.rewind(agent_id, body.step)
        return Success()

    @app.post(
        "/agent/{agent_id}/fork",
        summary="Start a new root from a copy of an agent's conversation at one of its steps",
    )
    async def fork(agent_id: str, body: ForkChoice) -> StartedTask:
        return StartedTask(
            agent_id=runtime.fork_from(agent_id, body.step, instructions=body.instructions)
        )
