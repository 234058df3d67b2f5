"""Whether the focus is on (or in) one of the transcript's question or approval blocks, asked
without loading their module (query_blocks.py): it loads with the transcript's first question
or approval, so until then no widget can be one, and a first frame with none does not pay for
it (an empty app's, most resumed sessions': ~4 ms)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from agentui.tui.app.widgets.query_blocks import QueryBlock

QUERY_BLOCKS_MODULE = "agentui.tui.app.widgets.query_blocks"


def query_blocks_loaded() -> bool:
    """Whether a question or approval block can exist yet."""
    return QUERY_BLOCKS_MODULE in sys.modules


def is_approval(node: DOMNode | None) -> bool:
    if node is None or not query_blocks_loaded():
        return False
    from agentui.tui.app.widgets.query_blocks import ApprovalBlock

    return isinstance(node, ApprovalBlock)


def query_block_around(node: DOMNode | None) -> QueryBlock | None:
    """The question or approval block `node` is, or is in."""
    if node is None or not query_blocks_loaded():
        return None
    from agentui.tui.app.widgets.query_blocks import QueryBlock

    return next((n for n in node.ancestors_with_self if isinstance(n, QueryBlock)), None)
