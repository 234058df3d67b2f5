"""A profile from a dict (a scene file's own) or from a TOML / JSON file.

Every way in ends in `profile_from_data`, so a scene's profile is checked exactly as a file's.
A bad one raises ProfileError with ONE message: where it came from, then each problem as
`field: what is wrong` (or `json_schema at $.path: ...` for the contract).
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pydantic import ValidationError

from agentui.core.profiles.profile import AgentProfile, ProfileOrigin, ProfileSource
from agentui.core.support.errors import ProfileError
from agentui.core.support.validation import describe_problem, error_location

SUFFIXES = (".toml", ".json")


def profile_from_data(
    data: Mapping[str, Any], origin: ProfileOrigin, *, default_name: str | None = None
) -> AgentProfile:
    """The profile `data` declares; `default_name` when it names none (a file's stem)."""
    if not isinstance(data, Mapping):
        raise ProfileError(f"{origin.where}: a profile is a table of settings")
    fields = dict(data)
    if default_name is not None:
        fields.setdefault("name", default_name)
    fields["origin"] = origin  # ours to say, whatever the data claims
    try:
        return AgentProfile.model_validate(fields)
    except ValidationError as exc:
        problems = "; ".join(_problem(error) for error in exc.errors())
        raise ProfileError(f"{origin.where}: {problems}") from None


def _problem(error: Any) -> str:
    where = error_location(error, "")
    if error["type"] == "extra_forbidden":
        return f"{where}: not a profile setting (a typo?)"
    if error["type"] == "missing":
        return f"{where}: missing"
    return f"{where}: {describe_problem(error)}" if where else describe_problem(error)


def read_profile_data(text: str, suffix: str, where: str) -> dict[str, Any]:
    """A profile file's text as data (TOML, or JSON for `.json`)."""
    try:
        data = json.loads(text) if suffix.lower() == ".json" else tomllib.loads(text)
    except json.JSONDecodeError as exc:
        raise ProfileError(
            f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column {exc.colno})"
        ) from None
    except tomllib.TOMLDecodeError as exc:
        raise ProfileError(f"{where}: not valid TOML ({exc})") from None
    if not isinstance(data, dict):
        raise ProfileError(f"{where}: a profile file holds one JSON object")
    return data


def load_profile_file(path: Path, source: ProfileSource = "user") -> AgentProfile:
    """The profile in a TOML or JSON file; its name defaults to the file's stem."""
    where = str(path)
    try:
        text = path.read_text("utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
        raise ProfileError(f"{where}: cannot be read: {reason}") from None
    data = read_profile_data(text, path.suffix, where)
    return profile_from_data(
        data, ProfileOrigin(source=source, where=where), default_name=path.stem
    )
