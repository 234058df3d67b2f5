"""Toasts about a state that can end: the "waiting for you" toasts and the queries each names
(once those are all settled, here, on another screen, or their agent ended), and toasts that
hold while an agent stays as it is ("main is paused: it reads your message when it resumes"):
out of date, each is withdrawn."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from agentui.tui.app import textual_compat

if TYPE_CHECKING:
    from textual.notifications import Notification

    from agentui.tui.app.app import AgentUIApp


class WaitingToasts:
    def __init__(self, app: AgentUIApp) -> None:
        self.app = app
        self._shown: list[tuple[Notification, Callable[[], bool]]] = []

    def show(self, message: str, title: str, query_ids: Iterable[str]) -> None:
        """A toast about these queries: it holds while any of them can still be answered."""
        asked = frozenset(query_ids)
        self.show_while(
            message,
            lambda: not asked.isdisjoint(self.app.main.model.open_queries),
            title=title,
        )

    def show_while(self, message: str, holds: Callable[[], bool], *, title: str = "") -> None:
        """A toast that says something true while `holds()`; withdrawn when it no longer is."""
        self._shown.append((self.app.notify(message, title=title), holds))

    def withdraw_untrue(self) -> None:
        """The toasts whose state has ended (their queries settled, their agent resumed);
        other toasts stay."""
        kept = []
        for notification, holds in self._shown:
            if notification.has_expired:
                continue
            if holds():
                kept.append((notification, holds))
            else:
                textual_compat.withdraw_notification(self.app, notification)
        self._shown = kept
