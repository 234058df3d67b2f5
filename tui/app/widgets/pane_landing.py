"""Where a widget of a scrolling pane lies in the layout the next frame draws, before any
frame has drawn it, and a scroll position set for that frame: what a pane needs to show a
widget it just mounted, at the place the person goes to, in the first frame that draws it
(widgets/transcript.py's `reveal`). Textual's `scroll_to_widget` reads the layout last drawn:
a widget not drawn yet is not in it."""

from __future__ import annotations

from textual.dom import DOMNode
from textual.geometry import Region
from textual.widget import Widget


def laid_out_region(pane: Widget, widget: Widget) -> Region | None:
    """Where `widget` (a child of `pane`, or a widget inside one) lies in `pane`'s scrolled
    content in the layout about to be drawn (None: it is not in it). Each container on the
    way is arranged as the compositor arranges it (Textual keeps the arrangements: the
    compositor reuses them)."""
    chain: list[Widget] = []
    node: DOMNode | None = widget
    while isinstance(node, Widget) and node.parent is not pane:
        chain.append(node)
        node = node.parent
    if not isinstance(node, Widget):
        return None
    arrangement = pane.arrange(pane.scrollable_content_region.size)
    placement = next((p for p in arrangement.placements if p.widget is node), None)
    if placement is None:
        return None
    region = placement.region
    for child in reversed(chain):
        parent = child.parent
        assert isinstance(parent, Widget)
        content = region.shrink(parent.styles.gutter)
        placement = next(
            (p for p in parent.arrange(content.size).placements if p.widget is child), None
        )
        if placement is None:
            return None
        region = placement.region.translate(content.offset)
    return region


def content_height(pane: Widget) -> int:
    """The height of `pane`'s scrolled content in the layout about to be drawn."""
    return pane.arrange(pane.scrollable_content_region.size).total_region.bottom


def scroll_before_layout(pane: Widget, y: int) -> None:
    """Set the scroll position `pane`'s next layout places its children at, as Textual's
    compositor sets an anchored pane's. Not `scroll_to`: it clamps to the height laid out
    last (what the pane showed before the widgets just mounted), and asks for a layout of its
    own. The pane stops following its end (the person goes somewhere)."""
    pane.release_anchor()
    pane.set_reactive(Widget.scroll_y, float(y))
    pane.set_reactive(Widget.scroll_target_y, float(y))
    pane.vertical_scrollbar.position = y
    pane.refresh(layout=True)
