"""NarrativeEntry's old home: the type lives in core/protocol/narrative.py, beside the events that
carry it; importers here still find it."""

from __future__ import annotations

from agentui.core.protocol.narrative import NarrativeEntry, NarrativeMetadata

__all__ = ["NarrativeEntry", "NarrativeMetadata"]
