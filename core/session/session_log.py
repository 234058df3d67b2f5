"""SessionLog: everything a session file holds, in file order (reader.py reads one).

Apart from the reader so that a resume checkpoint's plan, which holds one, loads without the
reader's parsing and repairs (elision.py): its first frame reads no line of the log.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from agentui.core.protocol.events import Event
    from agentui.core.session.records import ConversationRecord, SessionHeader


@dataclass(slots=True)
class SessionLog:
    """Everything a session file holds, in file order."""

    path: Path
    header: SessionHeader
    events: list[Event] = field(default_factory=list)
    conversations: list[ConversationRecord] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    # Where the last whole, valid line ends: a resumed session appends from here.
    valid_bytes: int = 0
    # Events of types this version does not know (a newer agentui wrote them): left out.
    unknown_events: int = 0
    # Numbers of the damaged lines that were skipped (a crash's torn tail is not among them).
    damaged_lines: list[int] = field(default_factory=list)

    @property
    def id(self) -> str:
        """The session's name: its file's, by which every command finds it and in which a
        resumed run goes on. A copy under another name is a session of its own; its header
        still holds the id it was written with (`renamed_note` says so)."""
        return self.path.stem

    @property
    def last_seq(self) -> int:
        """The newest seq the file mentions (a record may name one a merged delta holds)."""
        last_event = self.events[-1].seq if self.events else 0
        return max(last_event, self.conversations[-1].seq if self.conversations else 0)
