"""What the palette's Screenshot says once saved or failed, as plain toasts (Textual's own
are markup, or say no more than that it failed)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual import events

if TYPE_CHECKING:
    from agentui.tui.app.app import AgentUIApp


def say_saved(app: AgentUIApp, event: events.DeliveryComplete) -> None:
    if event.name == "screenshot":
        event.prevent_default()  # Textual's own toast is markup, shown here as typed
        where = f" to {event.path}" if event.path is not None else ""
        app.notify(f"Saved the screenshot{where}.", title="Screenshot")


def say_failed(app: AgentUIApp, event: events.DeliveryFailed) -> None:
    if event.name == "screenshot":
        event.prevent_default()  # Textual's own says no more than that it failed
        app.notify(
            f"The screenshot was not saved: {event.exception}",
            title="Screenshot",
            severity="error",
            timeout=10,
        )
