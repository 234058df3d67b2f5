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
        self._shown: list[tuple[Notification, frozenset[str]]] = []
        self._while: list[tuple[Notification, Callable[[], bool]]] = []

    def show(self, message: str, title: str, query_ids: Iterable[str]) -> None:
        notification = self.app.notify(message, title=title)
        self._shown.append((notification, frozenset(query_ids)))

    def show_while(self, message: str, holds: Callable[[], bool]) -> None:
        """A toast that says something true while `holds()`; withdrawn when it no longer is."""
        self._while.append((self.app.notify(message), holds))

    def withdraw_untrue(self) -> None:
        """The toasts shown with `show_while` whose state has ended."""
        kept = []
        for notification, holds in self._while:
            if notification.has_expired:
                continue
            if holds():
                kept.append((notification, holds))
            else:
                textual_compat.withdraw_notification(self.app, notification)
        self._while = kept

    def withdraw_settled(self) -> None:
        """Only the toasts about queries nobody can answer any more; other toasts stay."""
        if not self._shown:
            return
        still_open = self.app.main.model.open_queries
        kept: list[tuple[Notification, frozenset[str]]] = []
        for notification, query_ids in self._shown:
            if notification.has_expired:
                continue
            if query_ids.isdisjoint(still_open):
                textual_compat.withdraw_notification(self.app, notification)
            else:
                kept.append((notification, query_ids))
        self._shown = kept
