"""A JSON contract: what a JSON agent's final answer must be, checked with `jsonschema`.

On load, `contract_problem` says what is wrong with a profile's schema or example (one line,
naming the field and the JSON path). At run time, `JsonContract.check` parses an answer (a
```json fence around it is tolerated) and lists what does not hold, each with its JSON path,
for the model to fix.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any

from jsonschema import Draft7Validator, SchemaError
from jsonschema.exceptions import best_match

# Object mode without a schema asks for a JSON object, nothing more.
OBJECT_SCHEMA: dict[str, Any] = {"type": "object"}
# Enough to fix an answer by; an answer wrong everywhere need not fill an event.
MAX_ERRORS = 20

_FENCE = re.compile(r"```[A-Za-z]*[ \t]*\n?(.*?)\n?[ \t]*```", re.DOTALL)


def contract_problem(schema: dict[str, Any] | None, example: Any) -> str | None:
    """What is wrong with a schema (not Draft-07) or an example (not valid for the schema, or
    not an object when there is none); None when both hold."""
    if schema is not None:
        try:
            Draft7Validator.check_schema(schema)
        except SchemaError as exc:
            return f"json_schema at {exc.json_path}: {exc.message}"
    if example is not None:
        error = best_match(Draft7Validator(_effective(schema)).iter_errors(example))
        if error is not None:
            return f"json_example at {error.json_path}: {error.message}"
    return None


def uses_patterns(schema: Any) -> bool:
    """The schema has a `pattern` or `patternProperties` somewhere: checking a value may run a
    regular expression, which can backtrack for longer than anyone waits (`^(a+)+$` on 28
    characters takes seconds, on 40 hours). A key of that name that is a property's name counts
    too: the cost is only a check in a worker."""
    if isinstance(schema, dict):
        return any(
            key in ("pattern", "patternProperties") or uses_patterns(value)
            for key, value in schema.items()
        )
    if isinstance(schema, list):
        return any(uses_patterns(item) for item in schema)
    return False


def _effective(schema: dict[str, Any] | None) -> dict[str, Any]:
    return schema if schema is not None else OBJECT_SCHEMA


class InvalidAnswer(ValueError):
    """The answer is not JSON at all."""


def parse_answer(text: str) -> Any:
    """The JSON value of an answer: the whole text, or what a ``` fence in it holds."""
    body = text.strip()
    fenced = _FENCE.search(body)
    if fenced is not None:
        body = fenced.group(1).strip()
    if not body:
        raise InvalidAnswer("$: the answer is empty; it must be JSON")
    try:
        return json.loads(body)
    except json.JSONDecodeError as exc:
        raise InvalidAnswer(
            f"$: the answer is not JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None


@dataclass(frozen=True, slots=True)
class AnswerCheck:
    payload: Any = None  # the answer's JSON value, when it holds
    errors: tuple[str, ...] = ()  # `JSONPATH: what is wrong`, when it does not

    @property
    def ok(self) -> bool:
        return not self.errors


@dataclass(frozen=True, slots=True)
class JsonContract:
    """A JSON profile's contract, ready to check answers against."""

    profile: str  # the profile's name, for messages and events
    schema: dict[str, Any] | None  # the profile's own schema (None: object mode without one)
    example: Any = None
    _validator: Draft7Validator = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_validator", Draft7Validator(_effective(self.schema)))

    def check(self, text: str) -> AnswerCheck:
        try:
            value = parse_answer(text)
        except InvalidAnswer as exc:
            return AnswerCheck(errors=(str(exc),))
        found = sorted(self._validator.iter_errors(value), key=lambda error: error.json_path)
        if found:
            return AnswerCheck(
                errors=tuple(f"{error.json_path}: {error.message}" for error in found[:MAX_ERRORS])
            )
        return AnswerCheck(payload=value)
