"""The parsed CSS kept on disk (tui/app/parsed_css_cache.py): what is read back is what a parse
gives; a file that is bad in any way is ignored, never run, and a file that cannot be written
does not stop anything."""

from __future__ import annotations

import os
import pickle
from pathlib import Path
from typing import Any

import pytest
from textual.color import Color
from textual.css.model import RuleSet
from textual.css.stylesheet import Stylesheet
from textual.css.tokenizer import TokenError
from textual.layout import Layout

from agentui.core.monologue.config import MonologueConfig
from agentui.tui.app import parsed_css_cache
from agentui.tui.app.app import AgentUIApp
from agentui.tui.app.parsed_css_cache import ParsedCss

# Every kind of thing a parsed rule holds: selectors and their combinators, pseudo-classes,
# scalars in each unit, colors, spacing, layouts, enums, nested rules, a variable.
CSS = """
$accent-here: $accent;
Screen { layout: vertical; background: $surface; }
#panes > .side:focus-within, Tree.-busy Label { width: 30%; height: 1fr; color: $accent-here; }
Horizontal { layout: horizontal; padding: 0 1 1 2; margin: 1; border: round red 50%; }
Grid { layout: grid; grid-size: 3 2; grid-columns: 1fr 2fr auto; text-style: bold italic; }
Static { offset: 2 -1; max-height: 50vh; min-width: 10w; scrollbar-size: 1 1; &.hidden { display: none; } }
"""
VARIABLES = {"surface": "#101010", "accent": "#ff8800"}


def _parse(css: str = CSS) -> list[RuleSet]:
    return Stylesheet(variables=VARIABLES)._parse_rules(css, ("test.tcss", ""))


def _key(css: str = CSS) -> tuple[Any, ...]:
    return (css, ("test.tcss", ""), False, 0, "", frozenset(VARIABLES.items()))


def _written(path: Path, *sources: str) -> None:
    cache = ParsedCss.read(path)
    for css in sources or (CSS,):
        cache.rules(_key(css), lambda css=css: _parse(css))  # type: ignore[misc]
    cache.write()


def _never() -> list[RuleSet]:
    raise AssertionError("parsed, though the cache has the rules")


def _described(value: object) -> str:
    return type(value).__name__ if isinstance(value, Layout) else repr(value)


def _css(rules: list[RuleSet]) -> list[tuple[Any, ...]]:
    """What a rule is: its selectors, its declarations (a layout by its kind: each parse makes
    its own), its errors and its place."""
    return [
        (
            rule.selector_set,
            sorted((name, _described(value)) for name, value in rule.styles.get_rules().items()),
            rule.errors,
            rule.is_default_rules,
            rule.tie_breaker,
            rule.selector_names,
            rule.pseudo_classes,
        )
        for rule in rules
    ]


def test_rules_read_back_are_those_a_parse_gives(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    cache = ParsedCss.read(path)
    assert _css(cache.rules(_key(), _never)) == _css(_parse())
    assert cache.parsed == 0


def test_a_run_that_parsed_nothing_leaves_the_file_alone(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    before = path.stat().st_mtime_ns, path.read_bytes()
    cache = ParsedCss.read(path)
    cache.rules(_key(), _never)
    os.utime(path, ns=(0, 0))
    cache.write()
    assert path.stat().st_mtime_ns == 0 and path.read_bytes() == before[1]


def test_other_css_or_variables_are_parsed_and_kept_with_the_rest_used(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    other = "Label { color: red; }"
    _written(path, CSS, other)
    cache = ParsedCss.read(path)
    assert _css(cache.rules(_key(other), _never)) == _css(_parse(other))
    themed = (*_key()[:-1], frozenset({**VARIABLES, "accent": "#00ff00"}.items()))
    assert cache.rules(themed, _parse) and cache.parsed == 1


def _with_payload(path: Path, payload: bytes) -> None:
    """The file as `ParsedCss.write` makes it, holding `payload` (its checksum right)."""
    magic, stamp, _, _ = parsed_css_cache._split(path.read_bytes())
    path.write_bytes(magic + stamp + parsed_css_cache._check(payload) + b"\n" + payload)


def _parsed_again(path: Path) -> bool:
    cache = ParsedCss.read(path)
    cache.rules(_key(), _parse)
    return cache.parsed == 1


def test_a_damaged_or_cut_short_file_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    whole = path.read_bytes()
    path.write_bytes(whole[:-1] + bytes([whole[-1] ^ 1]))
    assert _parsed_again(path)
    path.write_bytes(whole[: len(whole) // 2])
    assert _parsed_again(path)
    path.write_bytes(b"")
    assert _parsed_again(path)
    assert _parsed_again(tmp_path / "none-here")


def test_a_file_of_another_textual_or_python_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    magic, stamp, check, payload = parsed_css_cache._split(path.read_bytes())
    path.write_bytes(magic + stamp.replace(b"python ", b"python 2.7 ") + check + b"\n" + payload)
    assert _parsed_again(path)


class _Touch:
    """A pickle that would make a file if it were loaded as pickles normally are."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def __reduce__(self) -> tuple[Any, ...]:
        return (Path.touch, (self.path,))


class _Reach:
    """A pickle that would reach past an allowed class with getattr."""

    def __reduce__(self) -> tuple[Any, ...]:
        return (getattr, (Stylesheet, "read"))


def test_a_file_naming_anything_but_parsed_css_s_classes_runs_nothing(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    _written(path)
    made = tmp_path / "made"
    _with_payload(path, pickle.dumps((_key(), _Touch(made))))
    assert _parsed_again(path)
    assert not made.exists()
    _with_payload(path, pickle.dumps((_key(), _Reach())))
    assert _parsed_again(path)
    _with_payload(path, pickle.dumps([1, 2]))  # loads, but is no entry
    assert _parsed_again(path)
    # An entry whose rules are not rules would fail Textual at every start.
    _with_payload(path, pickle.dumps((_key(), [Color(1, 2, 3)])))
    assert _parsed_again(path)


def test_a_file_that_cannot_be_written_is_left_and_not_tried_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "a file").write_text("")
    cache = ParsedCss.read(tmp_path / "a file" / "parsed-css.pickle")
    cache.rules(_key(), _parse)
    cache.write()  # no folder can be made under a file: nothing raised
    assert (tmp_path / "a file").read_text() == ""
    assert list(tmp_path.iterdir()) == [tmp_path / "a file"]
    pickled: list[object] = []
    monkeypatch.setattr(parsed_css_cache.pickle, "dumps", lambda *a, **k: pickled.append(a))
    cache.rules(_key("Label { color: red; }"), lambda: _parse("Label { color: red; }"))
    cache.write()
    assert pickled == [], "the run's later parses pickle nothing"


def test_each_entry_is_pickled_once_however_often_the_file_is_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "parsed-css.pickle"
    dumps = pickle.dumps
    pickled: list[object] = []

    def counted(entry: object, *args: Any, **options: Any) -> bytes:
        pickled.append(entry)
        return dumps(entry, *args, **options)

    monkeypatch.setattr(parsed_css_cache.pickle, "dumps", counted)
    cache = ParsedCss.read(path)
    sources = [CSS, "Label { color: red; }", "Static { width: 3; }"]
    for css in sources:  # as Textual parses a source at a time before the first frame
        cache.rules(_key(css), lambda css=css: _parse(css))
        cache.write()
    assert [type(entry) for entry in pickled] == [tuple] * len(sources), "one entry each"
    again = ParsedCss.read(path)
    for css in sources:
        assert _css(again.rules(_key(css), _never)) == _css(_parse(css))


def test_rules_with_a_bad_value_are_parsed_at_each_start_to_say_so(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    bad = "Label { color: notacolor; }"
    cache = ParsedCss.read(path)
    assert any(rule.errors for rule in cache.rules(_key(bad), lambda: _parse(bad)))
    cache.write()
    assert not path.exists()


def test_css_that_does_not_parse_raises_and_is_not_kept(tmp_path: Path) -> None:
    path = tmp_path / "parsed-css.pickle"
    cache = ParsedCss.read(path)
    bad = "Label { color: red; "
    for _ in range(2):
        with pytest.raises(TokenError):
            cache.rules(_key(bad), lambda: _parse(bad))
    cache.write()
    assert not path.exists()


@pytest.mark.anyio
async def test_the_app_s_own_css_reads_back_whole(tmp_path: Path) -> None:
    """Every source the app parses (its .tcss, each widget's DEFAULT_CSS) loads back through
    the restricted unpickler: a Textual upgrade whose rules hold a class it does not allow
    fails here, not silently at every start."""
    app = AgentUIApp(
        lambda: None,  # type: ignore[arg-type, return-value]
        remember_theme=False,
        monologue=MonologueConfig(enabled=False),
    )
    app.host._start_runtime = lambda: None  # type: ignore[method-assign]  # the first frame only
    async with app.run_test():
        variables = app.stylesheet._variables
        sources = [(css, where, *rest) for where, (css, *rest) in app.stylesheet.source.items()]
    assert len(sources) > 10
    path = tmp_path / "parsed-css.pickle"
    cache = ParsedCss.read(path)
    parsing = Stylesheet(variables=variables)
    for css, where, is_default, tie_breaker, scope in sources:
        key = (css, where, is_default, tie_breaker, scope, frozenset(variables.items()))
        cache.rules(
            key,
            lambda c=css, w=where, d=is_default, t=tie_breaker, s=scope: parsing._parse_rules(
                c, w, d, t, s
            ),
        )  # type: ignore[misc]
    cache.write()
    again = ParsedCss.read(path)
    for css, where, is_default, tie_breaker, scope in sources:
        key = (css, where, is_default, tie_breaker, scope, frozenset(variables.items()))
        assert _css(again.rules(key, _never)) == _css(
            parsing._parse_rules(css, where, is_default, tie_breaker, scope)
        )
