"""pydantic validation errors as text a person reads: "where: what is wrong", one per problem."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError


def error_location(error: Any, whole: str) -> str:
    """The dotted path of one error, or `whole` when the error is about the whole value."""
    return ".".join(str(part) for part in error["loc"]) or whole


def describe_errors(exc: ValidationError, whole: str, prefix: str = "") -> str:
    """Every problem as `prefix + where: message`, joined with "; "."""
    return "; ".join(
        f"{prefix}{error_location(error, whole)}: {error['msg']}" for error in exc.errors()
    )
