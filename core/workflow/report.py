"""WorkflowReport's old home: the types live in core/protocol/workflow_report.py, beside the events
that carry them; importers here still find them."""

from __future__ import annotations

from agentui.core.protocol.workflow_report import (
    ChildReport,
    QuestionReport,
    QuestionStep,
    WorkflowReport,
)

__all__ = ["ChildReport", "QuestionReport", "QuestionStep", "WorkflowReport"]
