"""pydantic validation errors as text a person reads: "where: what is wrong", one per problem."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def error_location(error: Any, whole: str) -> str:
    """The dotted path of one error, or `whole` when the error is about the whole value."""
    return ".".join(str(part) for part in error["loc"]) or whole


def describe_problem(error: Any) -> str:
    """What is wrong with one value, naming the value once: `message (got value)`.

    Validators therefore say what is wrong without quoting the value; a table or list is not
    quoted (its own errors point inside it).
    """
    message = str(error["msg"]).removeprefix("Value error, ")
    value = error.get("input")
    if error["type"] != "missing" and "input" in error and not isinstance(value, dict | list):
        message += f" (got {value!r})"
    return message


def describe_errors(exc: ValidationError, whole: str, prefix: str = "") -> str:
    """Every problem as `prefix + where: message`, joined with "; "."""
    return "; ".join(
        f"{prefix}{error_location(error, whole)}: {error['msg']}" for error in exc.errors()
    )
