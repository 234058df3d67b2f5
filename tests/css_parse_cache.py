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

from collections.abc import Hashable
from typing import Any

from textual.css.model import RuleSet
from textual.css.stylesheet import CSSLocation, Stylesheet

from agentui.tui.app.textual_compat import parsed_rules_key

_PARSE_RULES = Stylesheet._parse_rules
_parsed: dict[tuple[Hashable, ...], list[RuleSet]] = {}


def _parse_rules_once(
    self: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> list[RuleSet]:
    key = parsed_rules_key(self, css, read_from, is_default_rules, tie_breaker, scope)
    rules = _parsed.get(key)
    if rules is None:
        rules = _PARSE_RULES(self, css, read_from, is_default_rules, tie_breaker, scope)
        _parsed[key] = rules
    return rules


def install() -> Any:
    """Every stylesheet of this process parses through the shared cache."""
    Stylesheet._parse_rules = _parse_rules_once  # type: ignore[method-assign]
