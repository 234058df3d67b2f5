"""What the status bar says of the provider beside its name, and the shorter wordings it gives
way to on a narrow line: one table, read by who says them and by the bar that fits them."""

from __future__ import annotations

OFFLINE_NO_KEY = "offline scripted model (no API key)"
OFFLINE = "offline scripted model"
REPLAYING = "replaying (read-only)"
REPLAY_FINISHED = "replay finished (read-only)"
SWITCHED = "switched: new tasks run on it"

SHORTER_NOTICES: dict[str, tuple[str, ...]] = {
    OFFLINE_NO_KEY: ("offline (no API key)", "offline"),
    OFFLINE: ("offline",),
    REPLAYING: ("replaying",),
    REPLAY_FINISHED: ("replay finished",),
    SWITCHED: ("switched",),
}

RESUMED = "resumed"


def resumed_notice(session_id: str, found: str) -> str:
    """A resumed session's notice: `resumed ID`, or `resumed ID: what it found`."""
    return f"{RESUMED} {session_id}: {found}" if found else f"{RESUMED} {session_id}"


def shorter_wordings(notice: str) -> tuple[str, ...]:
    """The shorter wordings of one part of the notice, longest first. A resumed session's
    loses its id first: what the resume found (`2 interrupted agents`) is what the person
    needs, and an id cut short names nothing."""
    if notice in SHORTER_NOTICES:
        return SHORTER_NOTICES[notice]
    said, colon, found = notice.partition(": ")
    if said.startswith(RESUMED + " ") and colon:
        return (f"{RESUMED}: {found}",)
    return ()
