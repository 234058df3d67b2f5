"""Every reach into Textual's private parts, in one place (pinned: textual 8.x).

Each one says what it does, why no public API does it, and what to check when Textual is
upgraded. tests/tui/test_textual_compat.py keeps the rest of tui/ free of such reaches: a new
one goes here, with its reason. No upstream issue was found for any of them (searched on
Textualize/textual); a person who files one adds its link beside the function.
"""

from __future__ import annotations

from collections.abc import Hashable, Iterable, Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Any

from rich.style import Style
from rich.text import Text
from textual import layout
from textual._xterm_parser import XTermParser as XTermParser
from textual.app import App
from textual.content import Content, ContentType
from textual.geometry import Offset, Region
from textual.keys import _character_to_key
from textual.notifications import Notification
from textual.strip import Strip
from textual.widget import Widget, _BorderTitle
from textual.widgets import Footer, Input, TextArea, Tree
from textual.widgets._footer import FooterKey as FooterKey
from textual.widgets.tree import TreeNode

if TYPE_CHECKING:
    from textual.css.model import RuleSet
    from textual.css.stylesheet import Stylesheet
    from textual.css.types import CSSLocation

    from agentui.tui.app.parsed_css_cache import ParsedCss

# `XTermParser` is the parser Textual's Linux driver reads terminal input with; it lives in the
# private `textual._xterm_parser`. agentui subclasses it (paste_escapes.PasteSafeParser) so
# that an ESC inside a bracketed paste stays text.
#
# `FooterKey` is the widget Textual's Footer shows one key with; it is exported only from the
# private `textual.widgets._footer`. The key footer (widgets/footer.py) makes them itself for a
# dialog's keys, and updates them in place.


def use_input_parser(parser: type[XTermParser]) -> None:
    """Make Textual's Linux driver read terminal input through `parser`.

    Why: the driver builds its parser from the module-level name `XTermParser` in
    `textual.drivers.linux_driver`, with no hook to choose another. Check on upgrade: that the
    driver still looks the name up there when it starts reading input."""
    from textual.drivers import linux_driver

    linux_driver.XTermParser = parser  # type: ignore[attr-defined]  # not exported: replaced on purpose


def footer_bindings_ready(footer: Footer) -> bool:
    """Whether Textual's Footer has had the bindings signal it waits for before composing."""
    return bool(footer._bindings_ready)


def mark_footer_bindings_ready(footer: Footer) -> None:
    """Let a Footer compose at once with the keys of whatever has the focus.

    Why: Textual's Footer composes nothing until a bindings signal and a refresh have come,
    so the first frame would have no keys. Check on upgrade: the reactive's name and meaning."""
    footer.set_reactive(Footer._bindings_ready, True)


def compact_before_mount(box: TextArea) -> None:
    """A text box compact (no border), as `TextArea(compact=True)` makes it, without its cost.

    Why: the constructor sets the reactive, whose class toggle restyles the box and its eight
    parts (component classes) before it is even mounted, where it is styled again: ~1 ms of
    the first frame for the prompt. Set quietly, the box has the same value and class when it
    mounts. Check on upgrade: that `TextArea.compact` only toggles `-textual-compact`."""
    box.set_reactive(TextArea.compact, True)
    box.set_class(True, "-textual-compact", update=False)


def footer_key_compact_from_birth(key: FooterKey, compact: bool) -> FooterKey:
    """A footer key bound to its footer's `compact` given that value before it is mounted.

    Why: FooterKey's `compact` defaults to True and its watcher runs when the key mounts
    (adding `-compact`, a restyle of the key and its two parts); the footer's data binding then
    sets it to the footer's False (removing it, a second restyle). Eight keys restyled twice
    for nothing cost ~5 ms of the first frame. Set before mounting, the reactive has its value
    and the watcher does not run at mount; the class is what the watcher would have set. Check
    on upgrade: that `Reactive._initialize_reactive` skips an attribute that has a value, that
    `FooterKey._watch_compact` only toggles `-compact`, and that `data_bind` keeps its links in
    `_reactive_connect` (the palette's key is not bound: it stays compact, as Textual makes it)."""
    if "compact" not in (key._reactive_connect or {}):
        return key
    key.set_reactive(FooterKey.compact, compact)
    key.set_class(compact, "-compact", update=False)
    return key


def set_footer_key_disabled(key: FooterKey, disabled: bool) -> None:
    """A footer key greyed out (or not) in place, as `Footer.compose` would have made it.

    Why: FooterKey takes `disabled` only when made; recomposing the footer (every key widget
    removed and mounted again) for a state change is the cost avoided. It reads
    `_disabled` when clicked, and draws greyed out by the `-disabled` class."""
    key._disabled = disabled
    key.set_class(disabled, "-disabled")


def relabel_footer_key(key: FooterKey, new: FooterKey) -> None:
    """A mounted footer key made to show what `new` (made by the footer's compose, never
    mounted) shows: its key, label, action, tooltip and whether it is greyed out.

    Why: recomposing the footer when the focus moves to another pane removes every key widget
    and mounts new ones, each styled anew with its two parts (~3/4 of the recompose). FooterKey
    keeps what it shows in plain attributes, read when drawn and when clicked. Check on
    upgrade: FooterKey.__init__'s attributes and that `render` reads them."""
    label = (new.key, new.key_display, new.description, new.action)
    if (key.key, key.key_display, key.description, key.action) != label:
        key.key, key.key_display, key.description, key.action = label
        key.clear_cached_dimensions()  # its width is its label's
        key.refresh(layout=True)
    if key.tooltip != new.tooltip:
        key.tooltip = new.tooltip
    if key._disabled != new._disabled:
        set_footer_key_disabled(key, new._disabled)


def withdraw_notification(app: App[Any], notification: Notification) -> None:
    """Take a toast off the screen before its timeout.

    Why: Textual offers `notify` and `clear_notifications` (all of them), not the removal of
    one; `App._unnotify` is what a toast's own timeout calls. Check on upgrade: its name and
    that it still refreshes the toasts shown."""
    app._unnotify(notification)


def search_palette_again(search: Input) -> None:
    """The command palette searches its words again (what can be done changed meanwhile).

    Why: CommandPalette searches when its input posts `Input.Changed`, and has no public
    "search again"; the same message is posted with the words unchanged. Check on upgrade:
    that the palette still searches on that message."""
    search.post_message(Input.Changed(search, search.value))


def anchor_released(widget: Widget) -> bool:
    """Whether an anchored widget's anchor was released (a scroll away from the end, a resize).

    Why: Textual offers `is_anchored` and `anchor()`, not whether a release is in effect; it
    restores a released anchor only when the scroll position changes, which a view already at
    the end never does (widgets/transcript.py). Check on upgrade: the attribute's meaning."""
    return bool(widget._anchor_released)


def draw_once_handled(widget: Widget) -> None:
    """The screen drawn as soon as the handler running now (a key's: the tree's cursor moved,
    scrolled to, the transcript switched) has returned and its changes have reached the screen,
    not at the screen's next refresh tick.

    Why: Textual draws from a timer of 1/60 s, resumed when the screen goes idle with something
    to draw, and the timer waits for its next boundary. A key that came just after another
    frame (the clock's tick redrawing the tree's rows, a streamed line) waited for it, up to
    16.7 ms, and after a frame longer than 1/60 s for the boundary after that: the slowest
    arrow-downs of the pty bench (issue 36). Here, after the widget's current message (its
    `call_next`: the handler's scroll and refreshes are done), each widget's pending refresh
    goes to the screen (what its idle handler would do a little later: `_check_refresh`), and
    a callback queued behind those messages updates the screen (what the timer calls:
    `_on_timer_update`, which pauses the timer again). Only when no event waits for the app:
    keys that come faster than frames are drawn together at the timer's pace, as before.
    Check on upgrade: that widgets still send their refreshes in `_check_refresh` from the
    `_repaint_required`, `_layout_required` and `_scroll_required` flags, that the screen
    still takes them as messages, and that `_on_timer_update` is what the timer calls."""
    widget.call_next(_refreshes_sent_then_drawn, widget)


def _send_refresh(widget: Widget) -> None:
    if widget._repaint_required or widget._layout_required or widget._scroll_required:
        widget._check_refresh()


def _refreshes_sent_then_drawn(widget: Widget) -> None:
    if not widget.is_attached:
        return
    screen = widget.screen
    for node in screen.walk_children(Widget):
        _send_refresh(node)
        # A view's scrollbars are not its children (the tree's moves with its cursor).
        for bar in (node._vertical_scrollbar, node._horizontal_scrollbar, node._scrollbar_corner):
            if bar is not None:
                _send_refresh(bar)

    def draw() -> None:
        app = screen.app
        if screen.is_current and not app._batch_count and app._message_queue.empty():
            screen._on_timer_update()

    screen.call_later(draw)


def store_node_label(node: TreeNode[Any], label: Text) -> None:
    """A tree node's label replaced, without the repaint Textual's `set_label` asks for.

    Why: `TreeNode.set_label` posts a refresh of the node and its children per call; the agent
    tree relabels a batch of agents at once and repaints each row itself (`TreeNode.refresh`),
    and draws a row's label afresh at paint time. `label` is one line, as `Tree.process_label`
    would keep it. Check on upgrade: that `Tree.render_label` still draws `node._label`."""
    node._label = label


class TreeOfRowsAddedAtOnce(Tree[str]):
    """A Tree whose nodes added within `adding_at_once()` drop its line caches and ask for a
    layout once, after the last: Textual's Tree does it at each node added (`TreeNode.add`
    calls `_invalidate`), ~8 ms for a resumed session's 1,000 agents.

    Check on upgrade: that `TreeNode.add`/`_add` still call `tree._invalidate()` and nothing
    else a batch would need per node."""

    _adding_at_once = False

    @contextmanager
    def adding_at_once(self) -> Iterator[None]:
        self._adding_at_once = True
        try:
            yield
        finally:
            self._adding_at_once = False
        super()._invalidate()

    def _invalidate(self) -> None:
        if not self._adding_at_once:
            super()._invalidate()


class TreeStyledOncePerDraw(Tree[str]):
    """A Tree that works out its own style once per drawing of its lines, not once per line.

    Why: `Tree.render_line` asks for `self.rich_style` at every line, which combines the
    styles of the widget and its ancestors each time (~40 us); a frame where the agent tree
    scrolled by one row draws its 37 rows, and the clock's tick does the same each second, so
    ~1.5 ms of those frames went to the same style. It cannot change within one drawing.
    Check on upgrade: that `Tree.render_line` still only passes `rich_style`, the scroll offset
    and the width to `_render_line`, and that the lines are drawn from `render_lines`."""

    _line_style: Style | None = None

    def render_lines(self, crop: Region) -> list[Strip]:
        self._line_style = self.rich_style
        try:
            return super().render_lines(crop)
        finally:
            self._line_style = None

    def render_line(self, y: int) -> Strip:
        style = self._line_style
        if style is None:  # drawn some other way: Textual's
            return super().render_line(y)
        scroll_x, scroll_y = self.scroll_offset
        return self._render_line(y + scroll_y, scroll_x, scroll_x + self.size.width, style)


class BorderTitleRedrawingItsLine(_BorderTitle):
    """A widget's border title whose change redraws the border's top line, where the title
    is, instead of the whole widget.

    Why: Textual's `_BorderTitle.__set__` refreshes the whole widget. The transcript pane's
    title names the agent it shows, so each arrow-down in the agent tree drew the pane's 37
    lines again (~3 ms of CPU in the key's frame, issue 36) for the one that changed. The title
    is stored as Textual stores it; a widget not laid out yet is refreshed whole, as Textual
    would. Check on upgrade: that `_BorderTitle.__set__` only stores the title and refreshes,
    and that a title is drawn on the top line of the border only."""

    def __set__(self, obj: Widget, title: Text | ContentType | None) -> None:
        if isinstance(title, Text):
            title = Content.from_rich_text(title)
        if title is None:
            setattr(obj, self._internal_name, None)
        else:
            setattr(obj, self._internal_name, obj.render_str(title).expand_tabs(4).split()[0])
        width = obj.outer_size.width
        if not obj.is_mounted or not width:
            obj.refresh()
            return
        offset = obj.content_offset  # refresh's regions are the content's: the border is above
        obj.refresh(Region(-offset.x, -offset.y, width, 1))


def key_name_of_character(character: str) -> str:
    """Textual's name for the key that types `character` (`?` -> `question_mark`).

    Why: key bindings and keymaps name printable keys so, and Textual's `set_keymap` turns a
    character into that name with `textual.keys._character_to_key`; agentui compares a
    person's remapped keys with the bindings the same way. Check on upgrade: the function."""
    return _character_to_key(character)


def write_to_terminal(app: App[Any], text: str) -> None:
    """Escape sequences Textual has no call for (a desktop notification), written as its own
    bell() and copy_to_clipboard() write theirs: through the driver, never when headless."""
    driver = app._driver
    if not app.is_headless and driver is not None:
        driver.write(text)


def set_theme_before_start(app: App[Any], name: str) -> None:
    """Give an app that has not started yet its theme, without the CSS refresh a change costs.

    Why: setting `App.theme` queues `refresh_css`, which parses every CSS source again in a
    fresh Stylesheet and leaves the app's own parse cache empty: the first frame would parse all
    the CSS three times instead of once. Before the app runs, its stylesheet
    has parsed nothing: the theme's variables and classes are all a change would give it.
    Check on upgrade: that `App._watch_theme` still does only this plus the refresh and the
    `theme_changed_signal`, and that the stylesheet is still made in `App.__init__`."""
    app.set_reactive(App.theme, name)
    dark = app.current_theme.dark
    app.update_classes(
        {f"-theme-{name}": True, "-dark-mode": dark, "-light-mode": not dark}, update=False
    )
    app._refresh_truecolor_filter(app.ansi_theme)
    app.stylesheet.set_variables(app.get_css_variables())


def parsed_rules_key(
    stylesheet: Stylesheet,
    css: str,
    read_from: CSSLocation,
    is_default_rules: bool = False,
    tie_breaker: int = 0,
    scope: str = "",
) -> tuple[Hashable, ...]:
    """What Textual's parse of `css` (`Stylesheet._parse_rules`, same arguments) depends on:
    those arguments and the theme's variables, worked out once per variables dict (Textual
    replaces the dict when the theme changes; it never edits it in place)."""
    variables = stylesheet._variables
    seen: tuple[dict[str, str], frozenset[tuple[str, str]]] | None = getattr(
        stylesheet, "_agentui_variables_key", None
    )
    if seen is None or seen[0] is not variables:
        seen = (variables, frozenset(variables.items()))
        stylesheet._agentui_variables_key = seen  # type: ignore[attr-defined]
    return (css, read_from, is_default_rules, tie_breaker, scope, seen[1])


def parse_css_through(app: App[Any], parsed: ParsedCss) -> None:
    """Make the app's stylesheet take its parsed rules from `parsed` (kept on disk from one
    start to the next), parsing only those it has not got, and keep them once it has parsed.

    Why: Textual parses every CSS source at each start and keeps the rules only in the
    stylesheet's own memory (`Stylesheet._parse_rules` and its `_parse_cache`); no hook lets
    them be kept. Check on upgrade: `_parse_rules`'s signature and that `parse` calls it, that
    a theme change replaces `Stylesheet._variables` (`set_variables`) rather than editing it,
    that nothing mutates a parsed `RuleSet`, and parsed_css_cache's list of the classes rules
    are made of."""
    stylesheet = app.stylesheet
    parse_rules, parse = stylesheet._parse_rules, stylesheet.parse

    def parse_rules_once(
        css: str,
        read_from: CSSLocation,
        is_default_rules: bool = False,
        tie_breaker: int = 0,
        scope: str = "",
    ) -> list[RuleSet]:
        arguments = (css, read_from, is_default_rules, tie_breaker, scope)
        key = parsed_rules_key(stylesheet, *arguments)
        return parsed.rules(key, lambda: parse_rules(*arguments))

    def parse_and_keep() -> None:
        parse()
        parsed.write()  # nothing to do unless a rule was parsed

    stylesheet._parse_rules = parse_rules_once  # type: ignore[method-assign]  # on purpose
    stylesheet.parse = parse_and_keep  # type: ignore[method-assign]


class _DirtyLineRanges:
    """The lines Textual's line cache must draw again, as ranges (see `keep_tall`)."""

    __slots__ = ("_ranges",)

    def __init__(self) -> None:
        self._ranges: list[range] = []

    def update(self, lines: Iterable[int]) -> None:
        ranges = [lines] if isinstance(lines, range) else [range(y, y + 1) for y in lines]
        self._ranges += [r for r in ranges if r]
        if len(self._ranges) > 32:
            self._merge()

    def _merge(self) -> None:
        merged: list[range] = []
        for r in sorted(self._ranges, key=lambda r: r.start):
            if merged and r.start <= merged[-1].stop:
                merged[-1] = range(merged[-1].start, max(merged[-1].stop, r.stop))
            else:
                merged.append(r)
        self._ranges = merged

    def difference_update(self, lines: range) -> None:
        left: list[range] = []
        for r in self._ranges:
            if r.stop <= lines.start or r.start >= lines.stop:
                left.append(r)
                continue
            if r.start < lines.start:
                left.append(range(r.start, lines.start))
            if r.stop > lines.stop:
                left.append(range(lines.stop, r.stop))
        self._ranges = left

    def __contains__(self, y: object) -> bool:
        return any(y in r for r in self._ranges)

    def clear(self) -> None:
        self._ranges = []

    def __bool__(self) -> bool:
        return bool(self._ranges)

    def __repr__(self) -> str:
        return f"lines {self._ranges}"


def keep_tall(widget: Widget) -> None:
    """Make a widget millions of lines tall cost what its lines on screen cost, in Textual's
    line cache: marking it dirty is one range, not one int per line.

    Why: the line cache (`StylesCache`) keeps the lines to draw again as a set of ints, and a
    refresh of the whole widget (its own, or Textual's when its size changes) puts every line
    of it there: per frame, O(its height) in time and memory for the one long answer of
    widgets/frozen_chunks.py, which grows at every frame it streams. Its lines drawn are let go
    of with `forget_lines_drawn_outside`. Check on upgrade: how `StylesCache` uses
    `_dirty_lines` (update with a range, `in`, difference_update, clear, truth)."""
    widget._styles_cache._dirty_lines = _DirtyLineRanges()  # type: ignore[assignment]  # set-like


def forget_lines_drawn_outside(widget: Widget, keep: range) -> None:
    """Let go of the lines a widget drew outside `keep` (drawn afresh if they show again).

    Why: Textual's line cache keeps every line a widget drew until it is refreshed whole: a
    tall widget scrolled through kept every line of it. A line neither cached nor dirty is
    drawn when it shows. Check on upgrade: `StylesCache._cache` (line -> Strip)."""
    lines = widget._styles_cache._cache
    if len(lines) > len(keep):
        for y in [y for y in lines if y not in keep]:
            del lines[y]


class ArrangementMap:
    """What Textual's SpatialMap answers, without its grid: a container's arrangement asks it
    for its total region (every layout) and for the placements under the visible region (at
    most a few times a frame); this keeps the placements and reads them all for each.

    Why: the grid puts each placement in every 100x20 cell it covers; the transcript's one long
    answer (and the blocks holding it) cover hundreds of thousands of lines, so each layout
    filled tens of thousands of cells (~6 ms a frame at 3 M characters, growing with the
    answer). Same answers, in the same order (tests/tui/test_arrangement_map.py compares them
    with Textual's). Check on upgrade: that textual.layout still makes its map as
    `SpatialMap()` and reads `total_region`, `insert` and `get_values_in_region` only."""

    def __init__(self, grid_width: int = 100, grid_height: int = 20) -> None:
        self._grid_size = (grid_width, grid_height)
        self.total_region = Region()
        self._fixed: list[Any] = []
        self._placed: list[tuple[range, range, Any]] = []  # grid columns and rows, value

    def _cells(self, region: Region) -> tuple[range, range]:
        x, y, width, height = region
        grid_width, grid_height = self._grid_size
        return (
            range(x // grid_width, (x + width - 1) // grid_width + 1),
            range(y // grid_height, (y + height - 1) // grid_height + 1),
        )

    def insert(self, regions_and_values: Iterable[tuple[Region, Offset, bool, bool, Any]]) -> None:
        total_region = self.total_region
        for region, offset, fixed, overlay, value in regions_and_values:
            if fixed:
                self._fixed.append(value)
                continue
            if not overlay:
                total_region = total_region.union(region)
            self._placed.append((*self._cells(region + offset), value))
        self.total_region = total_region

    def get_values_in_region(self, region: Region) -> list[Any]:
        """As SpatialMap's: the fixed values, then each value by the first grid cell of
        `region` it is in (columns, then rows), values in one cell in the order inserted."""
        columns, rows = self._cells(region)
        found: list[tuple[int, int, int, Any]] = []
        for index, (value_columns, value_rows, value) in enumerate(self._placed):
            column = max(columns.start, value_columns.start)
            row = max(rows.start, value_rows.start)
            if column < min(columns.stop, value_columns.stop) and row < min(
                rows.stop, value_rows.stop
            ):
                found.append((column, row, index, value))
        found.sort(key=lambda place: place[:3])
        return list(dict.fromkeys([*self._fixed, *(place[3] for place in found)]))


def arrange_without_a_grid() -> None:
    """Textual's arrangements keep their placements in an ArrangementMap (see there)."""
    layout.SpatialMap = ArrangementMap  # type: ignore[attr-defined,assignment]  # same interface


def scroll_views_update_scrollbars_when_sized_anew() -> None:
    """A ScrollView (the agent tree, a text box) updates its scrollbars when its size, its own
    virtual size or its scrollbars' styles changed, not at every layout of the screen.

    Why: `ScrollView._size_updated` compares its own virtual size (its content's: the tree's
    rows) with the one the compositor gives it (its region's, which it ignores), so they
    always differ: every layout refreshed the tree's scrollbar, and the screen's next update,
    one region around everything refreshed, drew the tree and its scrollbar again (~2 ms of
    each frame of a transcript scrolled, for a tree that did not change). What decides the
    scrollbars is kept with the view; when it is unchanged, the call is skipped, answering
    what Textual would (whether to send a Resize). Check on upgrade: `ScrollView._size_updated`
    (its test of what changed, its return), and that `_scroll_update` reads only the size,
    the virtual size, the container size and the scrollbar styles."""
    from textual.scroll_view import ScrollView

    original = ScrollView._size_updated
    if getattr(original, "_skips_unchanged", False):
        return

    def size_updated(
        self: ScrollView, size: Any, virtual_size: Any, container_size: Any, layout: bool = True
    ) -> bool:
        styles = self.styles
        sized = (
            size,
            self.virtual_size,
            size - styles.gutter.totals,
            styles.overflow_x,
            styles.overflow_y,
            styles.scrollbar_size_vertical,
            styles.scrollbar_size_horizontal,
            styles.scrollbar_gutter,
        )
        if sized == getattr(self, "_agentui_sized", None) and self._size == size:
            return bool(self._container_size != container_size)  # Textual's answer, unchanged
        updated = original(self, size, virtual_size, container_size, layout)
        self._agentui_sized = sized  # type: ignore[attr-defined]  # kept with the view
        return updated

    size_updated._skips_unchanged = True  # type: ignore[attr-defined]
    ScrollView._size_updated = size_updated  # type: ignore[method-assign]  # see the docstring


def scroll_after_layout_repaints_what_moved() -> None:
    """A scroll right after a layout repaints what the scroll moved, not the whole screen.

    Why: `Compositor.reflow_visible` (a scroll) finds what to repaint by comparing the widgets'
    places with those of the last scroll's arrangement; a layout (`reflow`) forgets that one,
    so the first scroll after a layout compared with nothing and repainted every widget on the
    screen: the tree's rows, the monologue, the bars. A transcript's layout changes whenever an
    answer grows or a chunk drawn for the first time is taller than estimated, so most scrolls
    of a long transcript drew the whole screen. The layout's own map holds the places its
    frame paints; its widgets that showed are compared instead, but only while `_full_map` is
    still the very map that layout made: Textual also forgets the scroll's map when it builds
    the full map anew on demand (`full_map`, when a widget off screen is looked up between a
    scroll and its frame), and that map holds places no frame painted. Check on upgrade: that
    `reflow_visible` still compares with `self._visible_map or {}`, that `reflow` marks dirty
    against the map it stores in `_full_map`, and that `full_map` stores a new dict."""
    from textual._compositor import Compositor

    original_reflow_visible = Compositor.reflow_visible
    if getattr(original_reflow_visible, "_compares_with_the_layout", False):
        return
    original_reflow = Compositor.reflow

    def reflow(self: Compositor, parent: Widget, size: Any) -> Any:
        result = original_reflow(self, parent, size)
        self._agentui_painted_map = self._full_map  # type: ignore[attr-defined]  # kept with it
        return result

    def reflow_visible(self: Compositor, parent: Widget, size: Any) -> set[Widget]:
        layout_map = self._full_map
        painted = getattr(self, "_agentui_painted_map", None)
        if self._visible_map is None and layout_map and painted is layout_map:
            self._visible_map = {
                widget: geometry
                for widget, geometry in layout_map.items()
                if geometry.clip.overlaps(geometry.region)
            }
        return original_reflow_visible(self, parent, size)

    reflow_visible._compares_with_the_layout = True  # type: ignore[attr-defined]
    Compositor.reflow = reflow  # type: ignore[method-assign]  # see the docstring
    Compositor.reflow_visible = reflow_visible  # type: ignore[method-assign]  # see the docstring
