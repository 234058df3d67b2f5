"""The search index of saved sessions: SQLite FTS5 (the standard library's), kept beside them.

`agentui search TEXT` asks it; it is brought up to date from the session files at each search:
a file it has not seen is read whole, a file that grew is read from where it was left (only
whole lines: a line still being written waits for the next search), a file that shrank or whose
header or last indexed line changed (replaced, truncated by a resume) is read again, a file gone
is dropped. So the index is a cache of the files, never a second truth: a damaged or missing one
is rebuilt, and nothing the app does while recording waits on it.

Why this and not an index written with the log: the writer stays a plain appender (no second
file to keep in step, no cost while agents stream), sessions copied in from elsewhere or written
by older versions are found too, and the cost is paid once per new line, at search time.

What is indexed, per agent: each streamed block (consecutive text or thinking deltas of one
agent, one row; a block still streaming when a search reads it goes on in a second row), tasks,
tool calls (name and arguments) and their results or errors, questions and answers, steers and
notes, final results and errors. Words are matched (FTS5's unicode61 tokenizer, case and
diacritics ignored), the last word as a prefix: `port conf` finds "port configuration".

A search stays quick over many long sessions (tests/bench/search_bench.py measures it):
matches come newest first (rowid order: files are first read oldest first, and lines appended
later get later rows), so a common word stops at the limit instead of sorting every match.

The index holds the sessions' text, so it is the owner's alone (0600), as they are. A write
that fails (a read-only folder, a full disk) is said in `notes`; the search then runs on what
the index holds, or on a fresh index in memory when there is none.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import sqlite3
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from agentui.core.session.naming import SUFFIX, sessions_dir
from agentui.core.session.private_file import PRIVATE_FILE

INDEX_NAME = "search.sqlite3"
SCHEMA_VERSION = "1"
# Bytes before a file's indexed offset remembered to see that it still holds what was read.
_TAIL_BYTES = 64
# A highlight's markers: private-use characters, removed from the text shown.
MARK_START = "\ue000"
MARK_END = "\ue001"
DEFAULT_LIMIT = 20

_SCHEMA = f"""
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE files(
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,   -- the file's name without its suffix: how a session is opened
    head BLOB NOT NULL,          -- hash of its first line
    size INTEGER NOT NULL,       -- bytes read (whole lines only)
    tail BLOB NOT NULL           -- the last bytes read
);
CREATE TABLE agents(
    file INTEGER NOT NULL,
    agent_id TEXT NOT NULL,
    label TEXT NOT NULL,         -- its path of names: main/research
    PRIMARY KEY(file, agent_id)
) WITHOUT ROWID;
CREATE TABLE lines(
    id INTEGER PRIMARY KEY,
    file INTEGER NOT NULL,
    agent_id TEXT NOT NULL,
    ts REAL NOT NULL,
    seq INTEGER NOT NULL,
    kind TEXT NOT NULL,
    text TEXT NOT NULL
);
CREATE INDEX lines_by_file ON lines(file);
CREATE VIRTUAL TABLE hits USING fts5(
    text, content='lines', content_rowid='id',
    tokenize='unicode61 remove_diacritics 2', columnsize=0
);
INSERT INTO meta VALUES ('schema', '{SCHEMA_VERSION}');
"""

# What each kind of event adds to the index: its type -> (kind shown, field).
_FIELDS: dict[str, tuple[str, str]] = {
    "agent:spawned": ("task", "task"),
    "tool:complete": ("tool result", "result"),
    "tool:error": ("tool error", "error"),
    "query:raised": ("question", "prompt"),
    "query:answered": ("answer", "answer"),
    "execution:error": ("error", "error"),
    "character:complete": ("text", "text"),
    "round:start": ("input", "text"),
}
_STREAMED = {"text:delta": "text", "thinking:delta": "thinking"}
# Types read for what they hold (the rest of a file's lines are skipped unparsed).
_READ = frozenset(
    [*_FIELDS, *_STREAMED, "llm:response", "tool:start", "note:queued", "execution:complete"]
)
_TYPE_AT = len(b'{"type":"')


class SearchIndexError(Exception):
    """The index cannot be used at all (not even in memory)."""


@dataclass(frozen=True, slots=True)
class Match:
    """One match: where it is and the line of text that holds it."""

    session: str  # the session file's name: `agentui --resume SESSION` opens it
    agent_id: str
    agent: str  # its path of names
    ts: float
    seq: int  # the first event of the block that holds it
    kind: str  # text, thinking, tool, tool result, task, question, ...
    line: str  # the line of the text that holds the (first) match, markers removed
    start: int  # where the match is in `line`
    end: int

    def row(self) -> dict[str, Any]:
        """As `agentui search --json` prints it."""
        return {
            "session": self.session,
            "agent_id": self.agent_id,
            "agent": self.agent,
            "ts": self.ts,
            "seq": self.seq,
            "kind": self.kind,
            "line": self.line,
            "start": self.start,
            "end": self.end,
        }


@dataclass(slots=True)
class Results:
    matches: list[Match]
    more: bool  # there are matches past the limit
    notes: list[str] = field(default_factory=list)  # what went wrong with the index, said


def fts_query(text: str) -> str | None:
    """`text` as an FTS5 phrase, its last word a prefix; None when it holds no word."""
    if not any(ch.isalnum() for ch in text):
        return None
    return '"' + text.replace('"', '""') + '"*'


def search(
    text: str,
    *,
    directory: Path | None = None,
    limit: int = DEFAULT_LIMIT,
) -> Results:
    """The newest matches of `text` in every saved session, the index updated first."""
    folder = directory if directory is not None else sessions_dir()
    notes: list[str] = []
    if not folder.is_dir():
        return Results([], False, notes)  # no session yet: nothing to index, nothing made
    index = SearchIndex.open(folder, notes)
    try:
        try:
            index.update(notes)
            matches, more = index.query(text, limit)
        except sqlite3.DatabaseError as exc:
            if not _damaged(exc):
                raise SearchIndexError(f"cannot search {index.path}: {_reason(exc)}") from None
            # Damage found only once its pages were read: built again, once.
            index.close()
            notes.append(f"the search index {index.path} was damaged ({exc}): built again")
            index = SearchIndex.rebuilt(folder, notes)
            index.update(notes)
            matches, more = index.query(text, limit)
    finally:
        index.close()
    return Results(matches, more, notes)


class SearchIndex:
    def __init__(self, folder: Path, connection: sqlite3.Connection, *, saved: bool) -> None:
        self.folder = folder
        self.path = folder / INDEX_NAME
        self._db = connection
        self.saved = saved  # False: a fresh index in memory, gone when closed

    @classmethod
    def open(cls, folder: Path, notes: list[str]) -> SearchIndex:
        path = folder / INDEX_NAME
        try:
            return cls(folder, _connect_on_disk(path), saved=True)
        except sqlite3.Error as exc:
            problem = _reason(exc)
            if _damaged(exc):
                notes.append(f"the search index {path} was damaged ({problem}): built again")
                return cls.rebuilt(folder, notes)
            if path.is_file() and _readable(path):
                notes.append(
                    f"cannot update the search index {path} ({problem}): searching what "
                    "it holds, which may miss what was written since"
                )
                return cls(folder, _connect_read_only(path), saved=True)
        except OSError as exc:
            problem = exc.strerror or str(exc)
        return cls.in_memory(folder, problem, notes)

    @classmethod
    def rebuilt(cls, folder: Path, notes: list[str]) -> SearchIndex:
        """A new, empty index in place of a damaged one."""
        path = folder / INDEX_NAME
        try:
            _remove(path)
            return cls(folder, _connect_on_disk(path), saved=True)
        except sqlite3.Error as exc:
            return cls.in_memory(folder, _reason(exc), notes)
        except OSError as exc:
            return cls.in_memory(folder, exc.strerror or str(exc), notes)

    @classmethod
    def in_memory(cls, folder: Path, problem: str, notes: list[str]) -> SearchIndex:
        notes.append(
            f"cannot keep the search index {folder / INDEX_NAME} ({problem}): "
            "searching every session from the start"
        )
        memory = sqlite3.connect(":memory:")
        memory.executescript(_SCHEMA)
        return cls(folder, memory, saved=False)

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> SearchIndex:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def rows(self) -> int:
        """How many rows (blocks, calls, results, ...) it holds."""
        (count,) = self._db.execute("SELECT count(*) FROM lines").fetchone()
        return int(count)

    # -- bringing it up to date ----------------------------------------------------------------

    def update(self, notes: list[str]) -> None:
        """Read what the session files hold that the index does not; a failed write is said
        in `notes` and the search goes on with what the index holds."""
        try:
            self._update()
        except sqlite3.Error as exc:
            with contextlib.suppress(sqlite3.Error):
                self._db.rollback()
            if _damaged(exc):
                raise  # the caller builds it again
            notes.append(
                f"cannot update the search index {self.path} ({_reason(exc)}): searching what "
                "it holds, which may miss what was written since"
            )

    def _update(self) -> None:
        known = {
            name: (file_id, head, size, tail)
            for file_id, name, head, size, tail in self._db.execute(
                "SELECT id, name, head, size, tail FROM files"
            )
        }
        present = _session_files(self.folder)
        for gone in known.keys() - {p.stem for p in present}:
            self._forget(known[gone][0])
        for path in present:
            self._update_file(path, known.get(path.stem))

    def _update_file(self, path: Path, known: tuple[int, bytes, int, bytes] | None) -> None:
        try:
            with path.open("rb") as file:
                size = os.fstat(file.fileno()).st_size
                if known is not None and known[2] == size:
                    return  # nothing new (the common case: one stat, no read)
                head = hashlib.blake2b(file.readline(), digest_size=16).digest()
                start = 0
                if known is not None:
                    file_id, old_head, old_size, old_tail = known
                    if old_head == head and old_size < size:
                        file.seek(old_size - len(old_tail))
                        if file.read(len(old_tail)) == old_tail:
                            start = old_size
                    if start == 0:
                        self._forget(file_id)
                file.seek(start)
                data = file.read(size - start)
        except OSError:
            return  # gone or unreadable since it was listed: the next search sees it again
        end = data.rfind(b"\n") + 1  # whole lines only
        if start > 0 and end == 0:
            return
        with self._db:  # one transaction per file: a crash keeps whole files or nothing
            file_id = self._file_id(path.stem, head)
            agents = dict(
                self._db.execute("SELECT agent_id, label FROM agents WHERE file = ?", (file_id,))
            )
            rows = _rows(data[:end].split(b"\n")[:-1], agents, file_id)
            (before,) = self._db.execute("SELECT coalesce(max(id), 0) FROM lines").fetchone()
            self._db.executemany(
                "INSERT INTO lines(file, agent_id, ts, seq, kind, text) VALUES (?,?,?,?,?,?)",
                rows,
            )
            # The words of the rows just added (`lines` holds the text: external content).
            self._db.execute(
                "INSERT INTO hits(rowid, text) SELECT id, text FROM lines WHERE id > ?", (before,)
            )
            self._db.executemany(
                "INSERT OR REPLACE INTO agents VALUES (?, ?, ?)",
                ((file_id, agent_id, label) for agent_id, label in agents.items()),
            )
            read = start + end
            tail = data[max(0, end - _TAIL_BYTES) : end]
            if len(tail) < _TAIL_BYTES and start > 0:  # a short read: keep the older bytes too
                tail = (known[3] if known else b"") + tail
                tail = tail[-_TAIL_BYTES:]
            self._db.execute(
                "UPDATE files SET size = ?, tail = ? WHERE id = ?", (read, tail, file_id)
            )

    def _file_id(self, name: str, head: bytes) -> int:
        row = self._db.execute("SELECT id FROM files WHERE name = ?", (name,)).fetchone()
        if row is not None:
            return int(row[0])
        cursor = self._db.execute(
            "INSERT INTO files(name, head, size, tail) VALUES (?, ?, 0, x'')", (name, head)
        )
        return int(cursor.lastrowid or 0)

    def _forget(self, file_id: int) -> None:
        with self._db:
            self._db.execute(
                "INSERT INTO hits(hits, rowid, text) "
                "SELECT 'delete', id, text FROM lines WHERE file = ?",
                (file_id,),
            )
            self._db.execute("DELETE FROM lines WHERE file = ?", (file_id,))
            self._db.execute("DELETE FROM agents WHERE file = ?", (file_id,))
            self._db.execute("DELETE FROM files WHERE id = ?", (file_id,))

    # -- asking it -----------------------------------------------------------------------------

    def query(self, text: str, limit: int) -> tuple[list[Match], bool]:
        """The newest `limit` matches, and whether there are more."""
        phrase = fts_query(text)
        if phrase is None:
            return [], False
        rows = self._db.execute(
            "SELECT f.name, l.agent_id, coalesce(a.label, l.agent_id), l.ts, l.seq, l.kind, "
            "highlight(hits, 0, ?, ?) "
            "FROM hits JOIN lines l ON l.id = hits.rowid JOIN files f ON f.id = l.file "
            "LEFT JOIN agents a ON a.file = l.file AND a.agent_id = l.agent_id "
            "WHERE hits MATCH ? ORDER BY hits.rowid DESC LIMIT ?",
            (MARK_START, MARK_END, phrase, limit + 1),
        ).fetchall()
        # The newest rows indexed (a stop at the limit keeps a common word fast), shown in the
        # order they happened: a block is indexed when it ends, not when it began.
        page = sorted(rows[:limit], key=lambda row: (row[3], row[4]), reverse=True)
        matches = [
            Match(name, agent_id, agent, ts, seq, kind, *_matched_line(marked))
            for name, agent_id, agent, ts, seq, kind, marked in page
        ]
        return matches, len(rows) > limit

    def size_bytes(self) -> int:
        """What the index takes on disk (0 in memory)."""
        if not self.saved:
            return 0
        return sum(
            p.stat().st_size
            for p in (self.path, *(Path(f"{self.path}{s}") for s in ("-journal", "-wal")))
            if p.exists()
        )


def _matched_line(marked: str) -> tuple[str, int, int]:
    """The line of `marked` (FTS5's highlight) holding the first match, markers out."""
    at = marked.find(MARK_START)
    if at < 0:
        at = 0
    begin = marked.rfind("\n", 0, at) + 1
    end = marked.find("\n", at)
    line = marked[begin : end if end >= 0 else len(marked)]
    start = line.find(MARK_START)
    stop = line.find(MARK_END, max(start, 0))
    if start < 0:
        return _unmarked(line), 0, 0
    # A match may run over the line's end (a phrase across lines): up to the line's end.
    stop = len(line) if stop < 0 else stop
    shown_start = len(_unmarked(line[:start]))
    shown_end = shown_start + len(_unmarked(line[start:stop]))
    return _unmarked(line), shown_start, shown_end


def _unmarked(text: str) -> str:
    return text.replace(MARK_START, "").replace(MARK_END, "")


def _rows(
    lines: Iterable[bytes], agents: dict[str, str], file_id: int
) -> list[tuple[int, str, float, int, str, str]]:
    """The index's rows for these whole lines (an agent's consecutive deltas as one block);
    lines that are not JSON, or not of a kind read, are skipped (the reader says damage)."""
    rows: list[tuple[int, str, float, int, str, str]] = []
    # agent -> (kind, iteration, ts, seq, pieces): a block being gathered
    open_blocks: dict[str, tuple[str, int, float, int, list[str]]] = {}

    def close(agent_id: str) -> None:
        kind, _iteration, ts, seq, pieces = open_blocks.pop(agent_id)
        rows.append((file_id, agent_id, ts, seq, kind, "".join(pieces)))

    for line in lines:
        if line.startswith(b'{"type":"'):  # as the writer writes it: its type read unparsed
            kind_end = line.find(b'"', _TYPE_AT)
            if line[_TYPE_AT:kind_end].decode("ascii", "replace") not in _READ:
                continue
        elif not line.startswith(b"{") or line.startswith(b'{"record"'):
            continue  # not an event (a header, a format-2 record, damage)
        try:
            event = json.loads(line)
        except ValueError:
            continue
        if not isinstance(event, dict) or event.get("type") not in _READ:
            continue
        try:
            _add(event, rows, open_blocks, close, agents, file_id)
        except (KeyError, TypeError, ValueError):
            continue  # a line that is not a valid event of its type: the reader says so
    for agent_id in list(open_blocks):
        close(agent_id)
    return rows


def _add(
    event: dict[str, Any],
    rows: list[tuple[int, str, float, int, str, str]],
    open_blocks: dict[str, tuple[str, int, float, int, list[str]]],
    close: Any,
    agents: dict[str, str],
    file_id: int,
) -> None:
    kind_of = event["type"]
    agent_id = str(event["agent_id"])
    ts, seq = float(event["ts"]), int(event["seq"])
    streamed = _STREAMED.get(kind_of)
    block = open_blocks.get(agent_id)
    if streamed is not None:
        delta = str(event["delta"])
        iteration = int(event.get("iteration", 0))
        if block is not None and (block[0], block[1]) == (streamed, iteration):
            block[4].append(delta)
            return
        if block is not None:
            close(agent_id)
        open_blocks[agent_id] = (streamed, iteration, ts, seq, [delta])
        return
    if block is not None:
        close(agent_id)
    kind, text = _text_of(kind_of, event, agents)
    if text:
        rows.append((file_id, agent_id, ts, seq, kind, text))


def _text_of(kind_of: str, event: dict[str, Any], agents: dict[str, str]) -> tuple[str, str]:
    if kind_of == "agent:spawned":
        parent = event.get("parent_id")
        name = str(event.get("name") or event["agent_id"])
        agents[str(event["agent_id"])] = f"{agents[parent]}/{name}" if parent in agents else name
    if kind_of in _FIELDS:
        kind, key = _FIELDS[kind_of]
        return kind, str(event.get(key) or "")
    if kind_of == "llm:response":  # its text, unless its deltas hold it (left out: elision.py)
        return "text", str(event.get("text") or "")
    if kind_of == "execution:complete":
        return "result", str(event.get("result") or "")
    if kind_of == "note:queued":
        return ("steer" if event.get("from_person") else "note"), str(event.get("text") or "")
    call = event["call"]  # tool:start
    arguments = json.dumps(call.get("arguments") or {}, ensure_ascii=False)
    return "tool", f"{call['name']} {arguments}"


def _session_files(folder: Path) -> list[Path]:
    """The session files, oldest first (by name: ids start with their start time)."""
    try:
        return sorted(p for p in folder.iterdir() if p.suffix == SUFFIX and p.is_file())
    except OSError:
        return []


def _connect_on_disk(path: Path) -> sqlite3.Connection:
    if not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        # Created empty and private before SQLite opens it (SQLite would follow the umask).
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_FILE))
    connection = sqlite3.connect(path, timeout=10)
    try:
        # A cache of the session files: a crash that damages it costs a rebuild, nothing more.
        connection.execute("PRAGMA synchronous = OFF")
        version = _schema_version(connection)
        if version is None:
            connection.executescript("BEGIN;" + _SCHEMA + "COMMIT;")
        elif version != SCHEMA_VERSION:
            raise sqlite3.DatabaseError(f"schema {version}, this agentui writes {SCHEMA_VERSION}")
        connection.execute("SELECT count(*) FROM files").fetchone()
    except BaseException:
        connection.close()
        raise
    return connection


def _connect_read_only(path: Path) -> sqlite3.Connection:
    return sqlite3.connect(f"{path.as_uri()}?mode=ro", uri=True, timeout=10)


def _schema_version(connection: sqlite3.Connection) -> str | None:
    tables = {row[0] for row in connection.execute("SELECT name FROM sqlite_master")}
    if not tables:
        return None
    if "meta" not in tables:
        raise sqlite3.DatabaseError("not agentui's search index")
    row = connection.execute("SELECT value FROM meta WHERE key = 'schema'").fetchone()
    return str(row[0]) if row else "none"


def _damaged(exc: sqlite3.Error) -> bool:
    """A file that is not (or no longer) an index this version reads, as opposed to one it
    cannot write."""
    return type(exc) is sqlite3.DatabaseError or "malformed" in str(exc) or "corrupt" in str(exc)


def _readable(path: Path) -> bool:
    try:
        connection = _connect_read_only(path)
        try:
            return _schema_version(connection) == SCHEMA_VERSION
        finally:
            connection.close()
    except sqlite3.Error:
        return False


def _remove(path: Path) -> None:
    for suffix in ("", "-journal", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)


def _reason(exc: BaseException) -> str:
    return str(exc) or type(exc).__name__
