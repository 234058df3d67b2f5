"""Whether the focus is on (or in) one of the transcript's question or approval blocks, asked
without loading the blocks' module: it loads with the transcript's first block, so until then
no widget can be one, and the first frame of an empty app does not pay for it (~5 ms)."""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from agentui.tui.app.widgets.blocks import QueryBlock

BLOCKS_MODULE = "agentui.tui.app.widgets.blocks"


def is_approval(node: DOMNode | None) -> bool:
    if node is None or BLOCKS_MODULE not in sys.modules:
        return False
    from agentui.tui.app.widgets.blocks import ApprovalBlock

    return isinstance(node, ApprovalBlock)


def query_block_around(node: DOMNode | None) -> QueryBlock | None:
    """The question or approval block `node` is, or is in."""
    if node is None or BLOCKS_MODULE not in sys.modules:
        return None
    from agentui.tui.app.widgets.blocks import QueryBlock

    return next((n for n in node.ancestors_with_self if isinstance(n, QueryBlock)), None)
