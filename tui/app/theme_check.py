"""A theme file checked: TOML mapped onto textual.theme.Theme, every value validated.

Format (see themes/dark.toml): top-level keys are Theme's fields (name, primary, secondary,
warning, error, success, accent, foreground, background, surface, panel, boost, dark,
luminosity_spread, text_alpha, ansi); `[variables]` overrides Textual's CSS variables and
agentui's status colours `agent-running`, `agent-waiting`, `agent-paused`, `agent-modified`,
`agent-done`, `agent-error`, `agent-stopped`.

Every value is checked at load, before the app sees the theme: a theme that would crash the
app when picked (a colour that does not parse, a variable Textual cannot use) is skipped with a
warning naming the file, the key and what is wrong. A broken file is never fatal. The
shipped files are read without this (theme_files.py; a test checks each one here).
"""

from __future__ import annotations

import tomllib
from functools import cache
from typing import Annotated, Any

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, ValidationError, field_validator
from textual.color import Color, ColorParseError
from textual.css.errors import DeclarationError
from textual.css.parse import parse_declarations
from textual.css.tokenizer import TokenError
from textual.design import ColorSystem
from textual.theme import Theme

from agentui.core.support.validation import describe_problem, error_location
from agentui.tui.app.theme_variables import AGENT_VARIABLES

# CSS properties a variable's value is tried in: a variable whose default one of them takes
# must give a value every such property takes (text "auto 87%" is a colour only for `color`).
_PROBES = ("color", "background", "text-style", "link-background", "link-color", "link-style")
_NOT_IN_A_VALUE = frozenset(";{}")


class ThemeFileError(ValueError):
    pass


def _is_colour(value: str) -> bool:
    try:
        Color.parse(value)
    except ColorParseError:
        return False
    return True


def _colour(value: str) -> str:
    if not _is_colour(value):
        raise ValueError(f"not a colour such as 'red', '#RRGGBB' or 'rgb(r, g, b)' (got {value!r})")
    return value


Colour = Annotated[str, AfterValidator(_colour)]


class ThemeFile(BaseModel):
    """One theme file, as textual.theme.Theme takes it (a test keeps the two in step)."""

    # Strict: TOML has real booleans and numbers, so "no" for `dark` is a mistake, not False.
    model_config = ConfigDict(extra="forbid", strict=True, allow_inf_nan=False)

    name: str = Field(min_length=1)
    primary: Colour
    secondary: Colour | None = None
    warning: Colour | None = None
    error: Colour | None = None
    success: Colour | None = None
    accent: Colour | None = None
    foreground: Colour | None = None
    background: Colour | None = None
    surface: Colour | None = None
    panel: Colour | None = None
    boost: Colour | None = None
    dark: bool = True
    luminosity_spread: float = Field(0.15, ge=0, le=1)
    text_alpha: float = Field(0.95, ge=0, le=1)
    variables: dict[str, str] = Field(default_factory=dict)
    ansi: bool = False

    @field_validator("name")
    @classmethod
    def _printable(cls, value: str) -> str:
        if not value.isprintable():
            raise ValueError(f"must be printable text, without control characters (got {value!r})")
        return value

    @field_validator("variables")
    @classmethod
    def _usable(cls, variables: dict[str, str]) -> dict[str, str]:
        problems = [
            f"{name} {problem} (got {value!r})"
            for name, value in variables.items()
            if (problem := _variable_problem(name, value))
        ]
        if problems:
            raise ValueError("; ".join(problems))
        return variables


@cache
def known_variables() -> dict[str, str]:
    """Every variable a theme may set, with its default: Textual's and agentui's."""
    defaults = ColorSystem(primary="#000000").generate()
    return {**defaults, **AGENT_VARIABLES}


def _variable_problem(name: str, value: str) -> str | None:
    default = known_variables().get(name)
    if default is None:
        return "is not a variable Textual or agentui uses (a typo?)"
    if not value.isprintable() or _NOT_IN_A_VALUE & set(value):
        return "must be one plain CSS value (no control characters, ';', '{' or '}')"
    if _is_colour(default):
        return None if _is_colour(value) else "is not a colour"
    properties = [p for p in _PROBES if _declares(p, default)]
    if all(_declares(p, value) for p in properties):
        return None
    return f"is not a value for {' or '.join(properties)} (like {default!r})"


@cache
def _declares(css_property: str, value: str) -> bool:
    try:
        parse_declarations(f"{css_property}: {value};", ("theme file", ""))
    except (DeclarationError, TokenError):
        return False
    return True


def parse_theme(text: str, source: str) -> Theme:
    """The theme a file describes; ThemeFileError names the file, the key and the problem."""
    try:
        data: dict[str, Any] = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ThemeFileError(f"{source}: not valid TOML ({exc})") from None
    try:
        checked = ThemeFile.model_validate(data)
    except ValidationError as exc:
        problems = [
            f"{error_location(error, '(the file)')}: {_problem(error)}" for error in exc.errors()
        ]
        raise ThemeFileError(f"{source}: {'; '.join(problems)}") from None
    theme = Theme(**checked.model_dump())
    try:
        # What the app does when the theme is picked: a failure here would crash it there.
        theme.to_color_system().generate()
    except (ColorParseError, ValueError, TypeError, ArithmeticError) as exc:
        raise ThemeFileError(f"{source}: Textual cannot use this theme ({exc})") from None
    return theme


def _problem(error: Any) -> str:
    if error["type"] == "extra_forbidden":
        return f"not a theme key; theme keys are {', '.join(ThemeFile.model_fields)}"
    if error["type"] == "missing":
        return "required"
    return describe_problem(error)
