"""Script files for the scripted provider: the exact responses each agent gets, in order.

A script is JSON or TOML:

    [[agents."*"]]            # every agent without a script of its own
    thinking = "Plan first."
    text = "I'll look it up."
    tool_calls = [{ name = "lookup", arguments = { query = "ports" } }]

    [[agents."*"]]
    text = "The port is 8080."

    [[agents.main]]           # only the agent named "main"
    text = "Hello from main."

Each agent walks its own list, one turn per model call. A turn may also fail (`error`), stream
malformed tool arguments (`raw_arguments`), or hang after some chunks (`hang_after_chunks`)
so tests can cancel or pause a stream at an exact point.

The six-step workflow's structured decisions (clarify, questions, subquestions, resolution)
come from their own lists, so an agent's turns stay the same under either workflow. A decision
turn's `text` is the model's reply, normally the JSON object:

    [[decisions.main.clarify]]
    text = '{"ambiguous": true, "question": "Which city?"}'

    [[decisions."*".subquestions]]
    text = '{"subquestions": ["Venues", "Catering"]}'

A decision with no list (for the agent or "*") gets the smallest value its request's schema
allows, which for each workflow decision is `{}`, the neutral answer ("no"); a list that runs
out fails like an agent's.
"""

from __future__ import annotations

import json
import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from agentui.core.protocol.usage import Usage
from agentui.core.providers.scripted.script_file import read_script
from agentui.core.support.errors import ScriptError
from agentui.core.support.validation import describe_errors


class ScriptedToolCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    arguments: dict[str, Any] = Field(default_factory=dict)
    # Sent instead of `arguments` when set: lets a script stream JSON that does not parse.
    raw_arguments: str | None = None


class ScriptedError(BaseModel):
    model_config = ConfigDict(extra="forbid")

    message: str
    retryable: bool = False
    after_chunks: int = Field(0, ge=0)  # how many text chunks stream before the failure


class Turn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    thinking: str = ""
    text: str = ""
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    stop_reason: str | None = None  # default: tool_use with tool calls, else end_turn
    usage: Usage | None = None  # default: estimated from the characters in and out
    error: ScriptedError | None = None
    hang_after_chunks: int | None = Field(None, ge=0)

    @property
    def effective_stop_reason(self) -> str:
        if self.stop_reason:
            return self.stop_reason
        return "tool_use" if self.tool_calls else "end_turn"


class Script(BaseModel):
    model_config = ConfigDict(extra="forbid")

    agents: dict[str, list[Turn]] = Field(default_factory=dict)
    # agent name (or "*") -> decision name -> its replies, in order
    decisions: dict[str, dict[str, list[Turn]]] = Field(default_factory=dict)

    @model_validator(mode="after")
    def _not_empty(self) -> Script:
        if not self.agents:
            raise ValueError('a script needs at least one agent entry, e.g. agents."*"')
        return self

    def turns_for(self, agent_name: str) -> list[Turn] | None:
        if agent_name in self.agents:
            return self.agents[agent_name]
        return self.agents.get("*")

    def decision_turns(self, agent_name: str, decision: str) -> list[Turn] | None:
        own = self.decisions.get(agent_name, {})
        if decision in own:
            return own[decision]
        return self.decisions.get("*", {}).get(decision)

    @classmethod
    def for_all(cls, *turns: Turn) -> Script:
        return cls(agents={"*": list(turns)})

    @classmethod
    def load(cls, path: str | Path) -> Script:
        path = Path(path)
        raw = read_script(path)
        try:
            if path.suffix.lower() == ".toml":
                data = tomllib.loads(raw.decode("utf-8"))
            else:
                data = json.loads(raw)
        except (tomllib.TOMLDecodeError, json.JSONDecodeError, UnicodeDecodeError) as exc:
            raise ScriptError(
                f"script {path} is not valid {path.suffix[1:] or 'JSON'}: {exc}"
            ) from None
        try:
            return cls.model_validate(data)
        except ValidationError as exc:
            problems = describe_errors(exc, "(top)")
            raise ScriptError(f"script {path} is invalid: {problems}") from None
