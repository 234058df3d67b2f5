"""pydantic validation errors as text a person reads: "where: what is wrong", one per problem."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def error_location(error: Any, whole: str) -> str:
    """The dotted path of one error, or `whole` when the error is about the whole value."""
    return ".".join(str(part) for part in error["loc"]) or whole


def describe_problem(error: Any) -> str:
    """What is wrong with one value, naming the value once: `message (got value)`.

    pydantic's own checks do not name the value, so it is added; a validator of ours (a
    `value_error`) names it itself where it helps. A table or list is not quoted: its own
    errors point inside it.
    """
    message = str(error["msg"]).removeprefix("Value error, ")
    value = error.get("input")
    if error["type"] in ("missing", "value_error") or isinstance(value, dict | list):
        return message
    return f"{message} (got {value!r})"


def describe_errors(exc: ValidationError, whole: str, prefix: str = "") -> str:
    """Every problem as `prefix + where: message`, joined with "; "."""
    return "; ".join(
        f"{prefix}{error_location(error, whole)}: {error['msg']}" for error in exc.errors()
    )
