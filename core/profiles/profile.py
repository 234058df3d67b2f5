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
"""

from __future__ import annotations

import json
from typing import Annotated, Any, Literal, Self

from pydantic import BaseModel, ConfigDict, Field, JsonValue, field_validator, model_validator

from .contract import contract_problem

JsonMode = Literal["object", "schema"]
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
    json_mode: JsonMode | None = None
    json_schema: dict[str, Any] | None = None
    json_example: JsonValue = None
    origin: ProfileOrigin

    @property
    def kind(self) -> ProfileKind:
        if not self.expects_json:
            return "text"
        return "json object" if self.json_mode == "object" else "json schema"

    @field_validator("instructions")
    @classmethod
    def _not_blank(cls, value: str) -> str:
        if not value.strip():
            raise ValueError("must not be empty")
        return value

    @field_validator("json_schema", mode="before")
    @classmethod
    def _schema_from_text(cls, value: Any) -> Any:
        """A schema may be written as JSON text (handy in TOML)."""
        if not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except json.JSONDecodeError as exc:
            raise ValueError(
                f"not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
            ) from None

    @model_validator(mode="after")
    def _contract_holds(self) -> Self:
        if not self.expects_json:
            return self
        if self.json_mode is None:
            raise ValueError("json_mode: required when expects_json is true: object or schema")
        if self.json_mode == "schema" and self.json_schema is None:
            raise ValueError("json_schema: required in schema mode")
        if self.json_mode == "object" and not isinstance(self.json_example, dict):
            raise ValueError(
                "json_example: object mode needs an example JSON object, which answers follow"
            )
        problem = contract_problem(self.json_schema, self.json_example)
        if problem is not None:
            raise ValueError(problem)
        return self
