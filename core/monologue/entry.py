"""NarrativeEntry's old home: the type lives in core/narrative.py, beside the events that
carry it; importers here still find it."""

from __future__ import annotations

from ..narrative import NarrativeEntry, NarrativeMetadata

__all__ = ["NarrativeEntry", "NarrativeMetadata"]
