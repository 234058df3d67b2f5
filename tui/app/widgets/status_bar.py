"""The bottom status line: agent counts, the inbox's rows, where they run, a session log that stopped, tools
always allowed, tokens and cost, elapsed time, provider and model with why that one, the MCP
servers' states, the last error.

A narrow terminal shortens or drops the least useful parts first (GiveWay), never the middle of
one: the counts, a lost connection and the provider stay longest. What costs money is never
dropped: the tokens, the cost and the clock are always on the line, whole (the tokens in
thousands or millions only when little else can give way)."""

from __future__ import annotations

import textwrap
import time
from dataclasses import dataclass
from enum import IntEnum, auto
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.message import Message
from textual.widget import Widget

from agentui.core.protocol.agent_status import AgentStatus
from agentui.core.support.terminal_text import clipped, visible_controls
from agentui.tui.app.status_notices import shorter_wordings
from agentui.tui.app.widgets.agent_tree import GLYPHS, format_elapsed
from agentui.tui.app.widgets.fitted_line import Piece, fit_line

if TYPE_CHECKING:  # the fold loads after the first frame
    from agentui.core.protocol.events import McpServerChanged, SessionLogFailed
    from agentui.core.state import RunState
    from agentui.core.state.inbox import InboxRow

WHY_CHARS = 48  # an MCP server's error (its own words, of any length), at most
RUNNING = (AgentStatus.RUNNING, AgentStatus.MODIFIED)


@dataclass(slots=True)
class RunCounts:
    """What the line says about the agents, counted in one pass over them: each agent in one
    count (one waiting for the person is "waiting", paused or not), so they add up. The ended
    ones apart by how they ended: "done" is only what completed."""

    running: int = 0
    paused: int = 0
    waiting: int = 0
    done: int = 0
    cancelled: int = 0
    failed: int = 0
    deleted: int = 0
    tokens: int = 0
    cost: float | None = None  # None until some agent reports a cost
    first_start: float | None = None
    last_end: float | None = None  # the last agent's end (or start, for one not ended)
    live: int = 0  # agents not ended, whatever their count above: the clock moves for them
    budgeted: bool = False  # some agent has a budget: the burn rate is shown

    @classmethod
    def of(cls, model: RunState) -> RunCounts:
        counts = cls()
        costs = 0.0
        priced = False
        for agent in model.agents.values():
            status = agent.status
            counts.live += status.is_live
            waits = agent.open_queries or agent.budget_stop is not None  # a stop waits too
            if waits or status is AgentStatus.AWAITING_USER:
                counts.waiting += 1
            elif status in RUNNING:
                counts.running += 1
            elif status is AgentStatus.PAUSED:
                counts.paused += 1
            elif status is AgentStatus.COMPLETED:
                counts.done += 1
            elif status is AgentStatus.CANCELLED:
                counts.cancelled += 1
            elif status is AgentStatus.ERROR:
                counts.failed += 1
            elif status is AgentStatus.DELETED:
                counts.deleted += 1
            counts.tokens += agent.tokens
            counts.budgeted = counts.budgeted or agent.budget is not None
            if agent.cost_usd is not None:
                costs += agent.cost_usd
                priced = True
            started = agent.started_ts
            if started is not None:
                if counts.first_start is None or started < counts.first_start:
                    counts.first_start = started
                end = agent.ended_ts or started
                if counts.last_end is None or end > counts.last_end:
                    counts.last_end = end
        counts.cost = costs if priced else None
        return counts

    def elapsed(self, now: float | None) -> float | None:
        """From the first start to `now` while an agent is live, else to the last end (a
        session resumed with nothing live does not count the time it was closed); `now` None:
        the span of what was recorded (a replay)."""
        if self.first_start is None:
            return None
        end = now if self.live and now is not None else self.last_end
        return None if end is None else end - self.first_start


MCP_STATES = ("ready", "starting", "restarting", "failed")


def mcp_parts(servers: dict[str, McpServerChanged]) -> tuple[str, str, bool]:
    """`mcp: 2 ready, 1 failed`, why (`docs: exited 1`, the first troubled server's), and
    whether a server is not ready after a failure; ("", "", False) with no MCP server."""
    if not servers:
        return "", "", False
    counts = {state: 0 for state in MCP_STATES}
    for server in servers.values():
        counts[server.state] += 1
    text = "mcp: " + ", ".join(f"{n} {state}" for state, n in counts.items() if n)
    troubled = [s for s in servers.values() if s.state in ("failed", "restarting") and s.error]
    if not troubled:
        return text, "", False
    why = visible_controls(f"{troubled[0].server}: {troubled[0].error}")
    return text, clipped(why, WHY_CHARS), True


def mcp_summary(servers: dict[str, McpServerChanged]) -> tuple[str, bool]:
    """`mcp: 2 ready, 1 failed (docs: exited 1)`, and whether a server is not ready after a
    failure; ("", False) when there is no MCP server. The reason is the first such server's."""
    text, why, troubled = mcp_parts(servers)
    return (f"{text} ({why})" if why else text), troubled


class GiveWay(IntEnum):
    """What gives way first when the line is wider than the terminal (lowest first). The
    counts, where the agents run, and the provider with why it runs stay longest: why it
    runs goes to its shorter wordings (whole words, its meaning kept) before anything beside
    it is cut, and is cut only after the model and the tools always allowed are terse. The
    tokens, the cost and the clock have no rank: they are never dropped, and the tokens are
    written short (12.3k) only when little else is left to give way."""

    NARRATOR = auto()  # the narrator's tokens
    NAMESAKE_MODEL = auto()  # scripted-1 beside scripted
    SHORT_BURN = auto()  # the burn rate's cost a minute (shown while an agent has a budget)
    ZERO_COUNTS = auto()  # "running 0", "waiting for you 0", "done 0"
    MCP_READY = auto()  # servers all fine
    SHORT_ALLOWED = auto()  # always allowed: 3 tools
    SHORT_NOTICE = auto()  # offline (no API key)
    SHORT_ERROR = auto()
    MODEL_ID = auto()  # the provider's name alone: its model goes
    UNSAVED_PATH = auto()  # a session log that stopped: why, without the file's path
    TERSE_ALLOWED = auto()  # always: python
    TERSE_NOTICE = auto()  # offline
    CUT_NOTICE = auto()  # a notice with no shorter wording, cut at a word's end
    BURN = auto()  # the burn rate
    GLYPH_COUNTS = auto()  # ●2 ?1 ✓3, as the tree shows them
    NOTICE = auto()
    ERROR = auto()
    UNSAVED_GOES_ON = auto()  # "· the run goes on" after why the log stopped
    MCP_REASON = auto()
    SHORT_PLACE = auto()
    UNSAVED_REASON = auto()  # "⚠ not saving" alone
    SHORT_TOKENS = auto()  # 12.3k tok: a rounded number, never a cut one
    SHORT_ALARM = auto()


# Shorter wordings of what the app says beside the provider (tui/cli/provider_choice.status_notice
# and the app's own), longest first: the provider's name is already on the line, so "scripted
# model" can go before "no API key" does.
NOTICE_PARTS = " · "  # how the app joins the provider's notice and the session's


SHORT_CHARS = 28  # a shortened notice, error, or place


def one_line(text: str) -> str:
    """Hostile text on one line: controls visible, any run of whitespace one space."""
    return " ".join(visible_controls(text).split())


def short_tokens(tokens: int) -> str:
    if tokens < 1000:
        return str(tokens)
    if tokens < 1_000_000:
        return f"{tokens / 1000:.1f}k"
    return f"{tokens / 1_000_000:.1f}M"


def counts_piece(counts: RunCounts) -> Piece:
    """Every count in words; then only those that are not 0; then as the tree's glyphs.
    Agents waiting for the person stand out in each."""
    waiting = "bold reverse" if counts.waiting else ""
    # (words, count, its status's glyph, shown when 0 in the full form, style)
    rows = (
        ("running", counts.running, AgentStatus.RUNNING, True, ""),
        ("paused", counts.paused, AgentStatus.PAUSED, False, ""),
        ("waiting for you", counts.waiting, AgentStatus.AWAITING_USER, True, waiting),
        ("done", counts.done, AgentStatus.COMPLETED, True, ""),
        # How the others ended, once any did: a cancelled agent is not "done".
        ("cancelled", counts.cancelled, AgentStatus.CANCELLED, False, ""),
        ("failed", counts.failed, AgentStatus.ERROR, False, ""),
        ("deleted", counts.deleted, AgentStatus.DELETED, False, ""),
    )
    full, busy, glyphs = Text(), Text(), Text()
    for word, n, status, at_zero, style in rows:
        if n or at_zero:
            full.append(f"  {word} {n}", style=style)
        if n:
            busy.append(f"  {word} {n}", style=style)
            glyphs.append(f" {GLYPHS[status][0]}{n}", style=style)
    if not busy:  # no agent yet: say so once
        busy, glyphs = Text("  running 0"), Text(f" {GLYPHS[AgentStatus.RUNNING][0]}0")
    return Piece.kept(
        full[1:], busy[1:], glyphs, gives_way=(GiveWay.ZERO_COUNTS, GiveWay.GLYPH_COUNTS)
    )


def cut_at_word(text: str) -> str:
    """`text` cut to about SHORT_CHARS at a word's end where there is one (a single long
    word, a URL: cut within it)."""
    cut = textwrap.shorten(text, SHORT_CHARS, placeholder="…")
    return cut if cut != "…" else clipped(text, SHORT_CHARS)


def shortened(text: str, separator: str, style: str, short: GiveWay, gone: GiveWay | None) -> Piece:
    """`text` whole, then cut to about SHORT_CHARS; then gone (or kept, `gone` None)."""
    forms = [Text(separator + text, style=style)]
    ranks: list[int] = []
    if len(text) > SHORT_CHARS:
        forms.append(Text(separator + cut_at_word(text), style=style))
        ranks.append(short)
    if gone is None:
        return Piece.kept(*forms, gives_way=ranks)
    return Piece.dropped_at(*forms, gives_way=[*ranks, gone])


class StatusBar(Widget):
    """One line, fitted to the terminal's width at each paint (see GiveWay).

    It also reads the inbox off the fold (core/state/inbox.py), only when what can change its
    rows changed (core/state/inbox.inbox_key): it says how many rows wait, and tells the app
    the new rows (InboxChanged) for the inbox window and the nudges."""

    DEFAULT_CSS = "StatusBar { height: 1; }"

    class InboxChanged(Message):
        """The inbox's rows are other rows now (some came, some went)."""

        def __init__(self, rows: list[InboxRow]) -> None:
            super().__init__()
            self.rows = rows

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self._counts = RunCounts()
        self._inbox_key: object = None  # what the rows were read from (see _read_inbox)
        self.inbox_rows: list[InboxRow] = []
        self._parts: tuple[RunState | None, str, str, str] | None = None
        self._shown: list[Piece] = []
        self._alarm = ""
        self._place = ""

    def show(
        self,
        model: RunState | None,
        provider: str,
        model_id: str,
        now: float | None,
        notice: str = "",
        *,
        alarm: str = "",
        place: str = "",
    ) -> None:
        """`place`: where the agents run, when not here (an attached screen); `alarm`: what
        the person must see even on a narrow terminal (a lost connection). Both are drawn
        right after the counts and kept longest. `model` None: nothing has run yet (the
        first frame, drawn before the fold is loaded). `now`: the clock's time (see
        RunCounts.elapsed)."""
        self._counts = RunCounts.of(model) if model is not None else RunCounts()
        if model is not None:
            self._read_inbox(model)
        self._alarm = alarm
        self._place = place
        self._parts = (model, provider, model_id, notice)
        self._draw(self._counts.elapsed(now))

    def _read_inbox(self, model: RunState) -> None:
        """The inbox's rows again when the fold says they may have changed (inbox_key: only
        the events rows come from move it), not at every flush."""
        from agentui.core.state.inbox import inbox, inbox_key  # the fold's: loaded by now

        key = (id(model), inbox_key(model))
        if key == self._inbox_key:
            return

        self._inbox_key = key
        rows = [] if self._asks_nobody() else inbox(model)
        if rows != self.inbox_rows:
            self.inbox_rows = rows
            # Said by the bar (a flush runs in the app's timer: sent by the app, the message
            # would stop at the screen, whose parent sent it).
            self.post_message(self.InboxChanged(rows).set_sender(self))

    def _asks_nobody(self) -> bool:
        """A replay asks nobody anything: a question left open in it shows unanswerable in the
        transcript, so nothing waits on the person and the inbox holds no row (the count, f4
        in the footer and the inbox window agree: see waiting_rows in tui/app/inbox.py)."""
        host = getattr(self.app, "host", None)  # the app's; a bar in a test app has none
        return bool(getattr(host, "read_only", False))

    def tick(self, now: float) -> None:
        """The clock moved: only the elapsed time changes, so nothing is counted again (it
        stands still while no agent is live)."""
        if self._parts is not None:
            self._draw(self._counts.elapsed(now))

    def render(self) -> Text:
        return fit_line(self._shown, self.size.width)

    def _draw(self, elapsed: float | None) -> None:
        pieces = self._pieces(elapsed)
        if pieces != self._shown:  # most flushes change nothing here: no repaint for them
            self._shown = pieces
            self.refresh()

    def _pieces(self, elapsed: float | None) -> list[Piece]:
        """The line's pieces in the order they are read; GiveWay says which go first."""
        assert self._parts is not None
        model, provider, model_id, notice = self._parts
        counts = self._counts
        pieces = [counts_piece(counts)]
        if self.inbox_rows:
            pieces.append(inbox_piece(len(self.inbox_rows)))
        if self._alarm:
            alarm = f"⚠ {one_line(self._alarm)}"
            pieces.append(shortened(alarm, "  │ ", "bold red", GiveWay.SHORT_ALARM, None))
        elif self._place:
            place = one_line(self._place)
            pieces.append(shortened(place, "  │ ", "bold", GiveWay.SHORT_PLACE, None))
        if model is not None and model.session_log_failed is not None:
            pieces.append(unsaved_piece(model.session_log_failed))
        if model is not None and model.always_allowed:
            pieces.append(allowed_piece(model.always_allowed))
        pieces.append(tokens_piece(counts))
        if model is not None and counts.budgeted:
            pieces.append(burn_piece(model))
        if model is not None and model.narrator_tokens:
            narrator = Text(f" (+{model.narrator_tokens:,} narrator)", style="dim")
            pieces.append(Piece.dropped_at(narrator, gives_way=(GiveWay.NARRATOR,)))
        if elapsed is not None:
            pieces.append(Piece.kept(Text(f"  │ {format_elapsed(elapsed)}")))
        pieces.append(provider_piece(provider, model_id))
        notice = one_line(notice)  # it may quote a model's error or a file
        if notice:
            pieces.append(notice_piece(notice))
        mcp = mcp_piece(model.mcp_servers) if model is not None else None
        if mcp is not None:
            pieces.append(mcp)
        if model is not None and model.last_error is not None:
            error = one_line(": ".join(model.last_error))
            pieces.append(shortened(error, "  │ ", "bold red", GiveWay.SHORT_ERROR, GiveWay.ERROR))
        return pieces


def inbox_piece(rows: int) -> Piece:
    """What waits on the person, in the inbox's rows: never dropped, only while there are any."""
    return Piece.kept(Text(f"  │ inbox {rows}", style="bold"))


def allowed_piece(tools: list[str]) -> Piece:
    """A trust setting: shortened to a number of tools, then tersely, never dropped."""
    names = [one_line(tool) for tool in tools]
    listed = ", ".join(names)
    counted = f"{len(names)} tool" + ("s" if len(names) > 1 else "")
    shortest = min(listed, counted, key=len)
    forms = [Text(f"  always allowed: {listed}", style="bold")]
    ranks: list[int] = []
    if len(counted) < len(listed):
        forms.append(Text(f"  always allowed: {counted}", style="bold"))
        ranks.append(GiveWay.SHORT_ALLOWED)
    forms.append(Text(f"  always: {shortest}", style="bold"))
    ranks.append(GiveWay.TERSE_ALLOWED)
    return Piece.kept(*forms, gives_way=ranks)


def notice_piece(notice: str) -> Piece:
    """Why the provider runs: whole, then in its shorter wordings (status_notices, each part
    of it apart), then, if still long, cut at a word's end; gone last of all but the counts."""
    parts = [(part, *shorter_wordings(part)) for part in notice.split(NOTICE_PARTS)]
    wordings: list[str] = []
    for level in range(max(len(forms) for forms in parts)):
        wording = NOTICE_PARTS.join(forms[min(level, len(forms) - 1)] for forms in parts)
        if not wordings or len(wording) < len(wordings[-1]):
            wordings.append(wording)
    short_ranks = (GiveWay.SHORT_NOTICE, GiveWay.TERSE_NOTICE)
    forms = [Text("  " + wording, style="italic") for wording in wordings]
    ranks: list[int] = [short_ranks[min(k, 1)] for k in range(len(wordings) - 1)]
    if len(wordings[-1]) > SHORT_CHARS:
        forms.append(Text("  " + cut_at_word(wordings[-1]), style="italic"))
        ranks.append(GiveWay.CUT_NOTICE)
    return Piece.dropped_at(*forms, gives_way=[*ranks, GiveWay.NOTICE])


def format_cost(cost: float) -> str:
    """Cents from a dollar on; below it, to a hundredth of a cent (a cheap run is not $0.00)."""
    return f"${cost:.2f}" if cost >= 1 else f"${cost:.4f}"


def tokens_piece(counts: RunCounts) -> Piece:
    """What the run cost: always on the line; its tokens in thousands only as a last resort,
    its cost always to the cent."""
    cost = f" {format_cost(counts.cost)}" if counts.cost is not None else ""
    return Piece.kept(
        Text(f"  │ {counts.tokens:,} tok{cost}"),
        Text(f"  │ {short_tokens(counts.tokens)} tok{cost}"),
        gives_way=(GiveWay.SHORT_TOKENS,),
    )


def burn_piece(model: RunState) -> Piece:
    """What the agents spend a minute (over the last minute of the run), with a budget set:
    tokens, and the cost, or "tokens only" while some model has no price."""
    tokens, usd = model.burn_rate()
    rate = f" · {short_tokens(round(tokens))} tok/min"
    cost = " (tokens only)" if model.unpriced else f" {format_cost(usd)}/min"
    return Piece.dropped_at(
        Text(rate + cost, style="dim"),
        Text(rate, style="dim"),
        gives_way=(GiveWay.SHORT_BURN, GiveWay.BURN),
    )


def unsaved_piece(failed: SessionLogFailed) -> Piece:
    """The session log stopped: said at once and for the rest of the run, never dropped. What
    failed and where, then why alone, then that the run goes on, in that order of going."""
    if failed.saved_until is None:
        head = "⚠ not saving the session"
    else:
        saved = time.strftime("%H:%M:%S", time.localtime(failed.saved_until))
        head = f"⚠ session saved only up to {saved}"
    error, reason = one_line(failed.error), one_line(failed.reason)
    style = "bold red"
    return Piece.kept(
        Text(f"  │ {head}: {error} · the run goes on", style=style),
        Text(f"  │ {head}: {reason} · the run goes on", style=style),
        Text(f"  │ {head}: {reason}", style=style),
        Text("  │ ⚠ not saving", style=style),
        gives_way=(GiveWay.UNSAVED_PATH, GiveWay.UNSAVED_GOES_ON, GiveWay.UNSAVED_REASON),
    )


def provider_piece(provider: str, model_id: str) -> Piece:
    """The provider and its model; the provider's name alone when short of room."""
    name = Text("  │ ").append(one_line(provider), style="bold")
    if not model_id:
        return Piece.kept(name)
    named = name.copy().append(f" {one_line(model_id)}")
    # A model named after its provider (scripted-1) says little the name does not.
    namesake = model_id.startswith(provider)
    rank = GiveWay.NAMESAKE_MODEL if namesake else GiveWay.MODEL_ID
    return Piece.kept(named, name, gives_way=(rank,))


def mcp_piece(servers: dict[str, McpServerChanged]) -> Piece | None:
    """Servers all fine give way early; a troubled one stays (its reason goes late)."""
    text, why, troubled = mcp_parts(servers)
    if not text:
        return None
    if not troubled:
        return Piece.dropped_at(Text(f"  │ {text}"), gives_way=(GiveWay.MCP_READY,))
    return Piece.kept(
        Text(f"  │ {text} ({why})", style="bold yellow"),
        Text(f"  │ {text}", style="bold yellow"),
        gives_way=(GiveWay.MCP_REASON,),
    )
