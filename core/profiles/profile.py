"""AgentProfile: a declared agent kind and its output contract, and where it came from.

A profile names what an agent is told (instructions, persona), what it may use (tools, model)
and, when `expects_json`, what its final answer must be:

- `json_mode = "object"`: one JSON object shaped like `json_example` (required); a
  `json_schema`, if given too, is also checked.
- `json_mode = "schema"`: a JSON value valid for `json_schema` (inline JSON Schema Draft-07,
  a table or a JSON string); a `json_example`, if given, must be valid for it.

A bad mode, schema or example is refused when the profile is made, with one message naming
the field and the JSON path (`json_schema at $.properties.score.type: ...`). A profile that
does not expect JSON is not checked for any of it, and its json_* fields are not used.

A profile may give the agents started with it a `budget` (core/agent/budget.py), written as
`--budget` takes it or as a table of the same measures, with the same suffixes:

    budget = "tokens=50k,usd=2"        # or
    [budget]
    tokens = "50k"
    tool_calls = 40

It never gives an agent more than it was given otherwise (`budget_within`).
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from contextlib import suppress
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from agentui.core.agent.budget import MEASURES, Budget
from agentui.core.profiles.contract import JsonContract, contract_problem

JsonMode = Literal["object", "schema"]
JSON_MODES: tuple[JsonMode, ...] = ("object", "schema")
ProfileSource = Literal["built-in", "user", "scene"]
ProfileKind = Literal["text", "json object", "json schema"]

# Names are typed by people and models (`fork(prompt, profile="critic")`) and are file stems.
NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]*$"


class ProfileOrigin(BaseModel):
    """Where a profile came from: agentui itself, the person's agents directory, or a scene."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    source: ProfileSource
    where: str  # the file (a built-in's package file name), or the scene's label

    def describe(self) -> str:
        return "built-in" if self.source == "built-in" else f"{self.source} {self.where}"


class AgentProfile(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    name: Annotated[str, Field(pattern=NAME_PATTERN, max_length=64)]
    description: str = ""
    instructions: Annotated[str, Field(min_length=1)]
    model: str | None = None  # None: the runtime's model; an id or an alias (haiku, sonnet)
    tools: list[Annotated[str, Field(min_length=1)]] | None = None  # None: the runtime's tools
    persona: str | None = None
    expects_json: bool = False
    # Checked only when `expects_json` (a profile without it may leave anything here).
    json_mode: JsonValue = None  # object | schema
    json_schema: JsonValue = None  # a JSON object, or JSON text of one
    json_example: JsonValue = None
    # What the subtree of an agent started with it may spend; None: nothing of its own.
    budget: Budget | None = None
    origin: ProfileOrigin

    @property
    def kind(self) -> ProfileKind:
        if not self.expects_json:
            return "text"
        return "json object" if self.json_mode == "object" else "json schema"

    def contract(self) -> JsonContract | None:
        """What its final answers are checked against; None when it expects no JSON."""
        if not self.expects_json:
            return None
        schema = self.json_schema if isinstance(self.json_schema, dict) else None
        return JsonContract(self.name, schema, self.json_example)

    @field_validator("instructions")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    def budget_within(self, given: Budget | None) -> Budget | None:
        """The budget of an agent started with this profile that was `given` one otherwise
        (a root's [budget] or --budget, a subagent's share of its parent's): each limit the
        profile sets, never above the one given; the given limits it does not set stay."""
        if self.budget is None:
            return given
        if given is None:
            return self.budget
        limits = dict(given.items())
        for measure, limit in self.budget.items():
            limits[measure] = min(limit, limits.get(measure, limit))
        return Budget.from_limits(limits)

    @field_validator("budget", mode="before")
    @classmethod
    def _budget_as_written(cls, value: Any) -> Any:
        """The flag's form (`tokens=50k,usd=2`) or a table of limits, suffixes as the labels
        write amounts (5k, 1.5M); an empty one is none."""
        if value is None or isinstance(value, Budget):
            return value
        if isinstance(value, Mapping):
            text = ",".join(f"{name}={limit}" for name, limit in value.items())
        elif isinstance(value, str):
            text = value
        else:
            raise ValueError(
                f"give it as a table of limits or as text like tokens=50k,usd=2 (got {value!r}); "
                f"the measures are {', '.join(MEASURES)}"
            )
        try:
            budget = Budget.parse(text)
        except ValueError as exc:
            raise ValueError(str(exc).removeprefix("budget ")) from None
        return None if budget.is_empty else budget

    @field_validator("json_schema", mode="before")
    @classmethod
    def _schema_from_text(cls, value: Any) -> Any:
        """A schema may be written as JSON text (handy in TOML); text that is not JSON stays
        as it is, for the contract check to refuse (a non-JSON profile never reads it)."""
        if isinstance(value, str):
            with suppress(json.JSONDecodeError):
                return json.loads(value)
        return value

    @model_validator(mode="after")
    def _contract_holds(self) -> Self:
        if not self.expects_json:
            return self
        if self.json_mode is None:
            raise ValueError("json_mode: required when expects_json is true: object or schema")
        if self.json_mode not in JSON_MODES:
            raise ValueError(f"json_mode: must be object or schema (got {self.json_mode!r})")
        schema = self.json_schema
        if isinstance(schema, str):
            try:
                json.loads(schema)
            except json.JSONDecodeError as exc:
                raise ValueError(
                    f"json_schema: not valid JSON ({exc.msg} at line {exc.lineno} "
                    f"column {exc.colno})"
                ) from None
        if schema is not None and not isinstance(schema, dict):
            raise ValueError("json_schema: must be a JSON object (a JSON Schema)")
        if self.json_mode == "schema" and schema is None:
            raise ValueError("json_schema: required in schema mode")
        if self.json_mode == "object" and not isinstance(self.json_example, dict):
            raise ValueError(
                "json_example: object mode needs an example JSON object, which answers follow"
            )
        problem = contract_problem(schema, self.json_example)
        if problem is not None:
            raise ValueError(problem)
        return self
