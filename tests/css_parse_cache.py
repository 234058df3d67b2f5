"""One cache of parsed CSS for every app a test process runs.

Textual keeps the rules it parsed per stylesheet, so each new app parses all of the app's CSS
again (its .tcss and every widget's DEFAULT_CSS): ~13 ms of each TUI test's ~100 ms of CPU, for
a result that depends only on the text, where it came from and the theme's variables. The
rules are shared here as Textual shares them between the reparses of one app (nothing changes a
parsed rule set); CSS that fails to parse is never cached, so it fails in every test.

Check on upgrade: that `Stylesheet._parse_rules` keeps its signature, that a theme change
replaces `Stylesheet._variables` (`set_variables`) rather than editing it in place, and that
nothing mutates a parsed `RuleSet`.
"""

from __future__ import annotations

from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

_PARSE_RULES = Stylesheet._parse_rules
_parsed: dict[tuple[object, ...], list[RuleSet]] = {}


def _variables_key(stylesheet: Stylesheet) -> frozenset[tuple[str, str]]:
    """The theme's variables as a key, worked out once per variables dict the stylesheet has
    (Textual replaces the dict when the theme changes; it never edits it in place)."""
    variables = stylesheet._variables
    seen: tuple[dict[str, str], frozenset[tuple[str, str]]] | None = getattr(
        stylesheet, "_tests_variables_key", None
    )
    if seen is None or seen[0] is not variables:
        seen = (variables, frozenset(variables.items()))
        stylesheet._tests_variables_key = seen  # type: ignore[attr-defined]
    return seen[1]


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = (css, read_from, is_default_rules, tie_breaker, scope, _variables_key(self))
    rules = _parsed.get(key)
    if rules is None:
        rules = _PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


def install() -> Any:
    """Every stylesheet of this process parses through the shared cache."""
    Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]
