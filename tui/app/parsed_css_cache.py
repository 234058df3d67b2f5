"""Textual's parsed CSS kept on disk from one start to the next (issue 36: ~15 ms of CPU).

Textual parses the app's CSS (its .tcss and every widget's DEFAULT_CSS) at every start, for
rules that depend only on the CSS text, where it came from and the theme's variables: together
the key of an entry here. The file holds the rules the last run used; it is read once as the
app is built, and written when the stylesheet has parsed a rule it did not have (at the first
start, before the first frame: the app may be killed at any time after it).

It is only a cache. A file that is missing, of another format, Textual or Python, whose checksum
does not match, or that does not load is ignored and the CSS parsed; a file that cannot be
written is left as it is. It lives in the person's own cache directory, but a cache is no place
to run code from: the unpickler makes only the few Textual classes parsed rules are built of.
"""

from __future__ import annotations

import io
import os
import pickle
import sys
import tempfile
import zlib
from collections.abc import Callable, Hashable
from enum import Enum
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from agentui.core.support.paths import cache_dir

if TYPE_CHECKING:
    from textual.css.model import RuleSet

FILE_NAME = "parsed-css.pickle"
_MAGIC = b"agentui parsed css 1\n"

# What parsed rules are made of (textual 8.x), by module: anything else in the file is refused.
_MADE_OF = {
    "textual.css.model": (
        "RuleSet Selector SelectorSet SelectorType CombinatorType "
        "_check_universal _check_type _check_class _check_id"
    ),
    "textual.css.styles": "Styles",
    "textual.css.scalar": "Scalar ScalarOffset Unit",
    "textual.color": "Color",
    "textual.geometry": "Spacing",
    "textual.layouts.horizontal": "HorizontalLayout",
    "textual.layouts.vertical": "VerticalLayout",
    "textual.layouts.grid": "GridLayout",
    "textual.layouts.stream": "StreamLayout",
    "textual.css.transition": "Transition",
}
_ALLOWED = {(module, name) for module, names in _MADE_OF.items() for name in names.split()}
# What makes the rules: Textual's parser and the classes of what it makes.
_MAKERS = (
    "textual.css.parse",
    "textual.css._styles_builder",
    "textual.css.tokenize",
    "textual.css.tokenizer",
    "textual.css.constants",
    "textual.css.transition",
    "textual.css.stylesheet",
    "textual.css.model",
    "textual.css.styles",
    "textual.css.scalar",
    "textual.color",
    "textual.geometry",
)


def _stamp() -> bytes:
    """Which Python and which Textual made the rules: rules pickled by another (an upgrade, an
    edit) are not read. Textual is named by its files' sizes and times, as asking for
    `textual.__version__` loads importlib.metadata (~20 ms, more than the cache saves). Raises
    KeyError if the app has not loaded them."""
    stats = [os.stat(str(sys.modules[name].__file__)) for name in _MAKERS]
    textual = ";".join(f"{stat.st_size},{stat.st_mtime_ns}" for stat in stats)
    python = " ".join(sys.version.split())
    return f"python {python}; textual {textual}\n".encode()


def cache_file() -> Path:
    return cache_dir() / FILE_NAME


def _member(owner: object, name: str) -> object:
    """What pickle reaches with `getattr`, for the two things parsed rules hold: an enum's
    member (`Unit.CELLS`), and a rule table's `get` and `__contains__` (a `Styles` keeps them
    bound)."""
    if isinstance(owner, type) and issubclass(owner, Enum):
        return owner[name]
    if type(owner) is dict and name in ("get", "__contains__"):
        return getattr(owner, name)
    raise pickle.UnpicklingError(f"{name} of {type(owner).__name__} is not part of parsed CSS")


class _RulesUnpickler(pickle.Unpickler):
    def find_class(self, module: str, name: str) -> Any:
        if (module, name) == ("builtins", "getattr"):
            return _member
        if (module, name) == ("functools", "partial"):  # a selector's check: allowed functions
            return partial
        if (module, name) not in _ALLOWED:
            raise pickle.UnpicklingError(f"{module}.{name} is not part of parsed CSS")
        return super().find_class(module, name)


def _entries(data: bytes) -> dict[Hashable, tuple[list[RuleSet], bytes]]:
    """The file's entries, each with its bytes as pickled; raises ValueError (or what
    unpickling raises) for a bad file."""
    from textual.css.model import RuleSet

    magic, stamp, check, payload = _split(data)
    if magic != _MAGIC or stamp != _stamp():
        raise ValueError("another format, Textual or Python")
    if _check(payload) != check:  # cut short or damaged (a checksum: no guard against a forger)
        raise ValueError("its checksum does not match")
    entries: dict[Hashable, tuple[list[RuleSet], bytes]] = {}
    stream = io.BytesIO(payload)
    while stream.tell() < len(payload):
        start = stream.tell()
        entry = _RulesUnpickler(stream).load()
        # What Textual is handed must be rules: anything else would fail it at every start.
        if not (
            type(entry) is tuple
            and len(entry) == 2
            and type(entry[1]) is list
            and all(type(rule) is RuleSet for rule in entry[1])
        ):
            raise ValueError("not a table of rules")
        entries[entry[0]] = (entry[1], payload[start : stream.tell()])
    return entries


def _split(data: bytes) -> tuple[bytes, bytes, bytes, bytes]:
    magic, _, rest = data.partition(b"\n")
    stamp, _, rest = rest.partition(b"\n")
    check, _, payload = rest.partition(b"\n")
    return magic + b"\n", stamp + b"\n", check, payload


def _check(payload: bytes) -> bytes:
    """zlib's CRC-32 (zlib is loaded already; hashlib would load OpenSSL) and the length."""
    return f"{zlib.crc32(payload):08x} {len(payload)}".encode()


class ParsedCss:
    """The rules parsed in an earlier run, by key; those used in this one are kept."""

    def __init__(self, path: Path, earlier: dict[Hashable, tuple[list[RuleSet], bytes]]) -> None:
        self.path = path
        self._earlier = earlier  # each entry pickled alone: a write pickles only what is new
        self._used: dict[Hashable, list[RuleSet]] = {}
        self._pickled: dict[Hashable, bytes] = {}  # the entries used, as written (b"": not yet)
        self._unwritable = False  # a write failed: not tried again in this run

    @property
    def parsed(self) -> int:
        """Rules parsed and not written yet (none: the file has them all)."""
        return sum(1 for pickled in self._pickled.values() if not pickled)

    @classmethod
    def read(cls, path: Path) -> ParsedCss:
        """The cache in `path`, empty when there is none that is good."""
        try:
            earlier = _entries(path.read_bytes())
        except Exception:  # a cache: whatever is wrong with it, parse instead
            earlier = {}
        return cls(path, earlier)

    def rules(self, key: Hashable, parse: Callable[[], list[RuleSet]]) -> list[RuleSet]:
        """The rules for `key` (its CSS, origin and theme variables), parsed if not known.
        Nothing changes a parsed rule set, so the same list is handed out again."""
        rules = self._used.get(key)
        if rules is not None:
            return rules
        earlier = self._earlier.pop(key, None)
        if earlier is not None:
            rules, self._pickled[key] = earlier
        else:
            # CSS that fails to tokenize raises here; a rule with errors (a bad value) is
            # parsed again at each start, so each start says what is wrong with it.
            rules = parse()
            if not any(rule.errors for rule in rules):
                self._pickled[key] = b""  # pickled at the next write
        self._used[key] = rules
        return rules

    def write(self) -> None:
        """Keep this run's rules for the next, if it had to parse any since the last write;
        never raises (a run without the file only parses its CSS again)."""
        if not self.parsed or self._unwritable:
            return
        try:
            for key, pickled in self._pickled.items():
                if not pickled:
                    entry = (key, self._used[key])
                    self._pickled[key] = pickle.dumps(entry, protocol=pickle.HIGHEST_PROTOCOL)
            payload = b"".join(self._pickled.values())
            check = _check(payload)
            self.path.parent.mkdir(parents=True, exist_ok=True)
            # Whole or not at all: another agentui may be reading it or writing its own.
            handle, temporary = tempfile.mkstemp(dir=self.path.parent, prefix=".parsed-css-")
            try:
                with os.fdopen(handle, "wb") as out:
                    out.write(b"".join([_MAGIC, _stamp(), check, b"\n", payload]))
                os.replace(temporary, self.path)
            except BaseException:
                os.unlink(temporary)
                raise
        except (OSError, pickle.PicklingError):
            # Nothing is lost (each start can parse its CSS): a cache that cannot be kept is
            # no error to show; a folder that cannot be written is not tried again.
            self._unwritable = True
