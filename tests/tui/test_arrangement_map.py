"""textual_compat.ArrangementMap answers what Textual's SpatialMap answers, in the same order:
the total region of an arrangement and the placements under a region (fixed, overlays, regions
of no width, offsets, regions far apart)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st
from textual._spatial_map import SpatialMap
from textual.geometry import Offset, Region

from agentui.tui.app.textual_compat import ArrangementMap

REGIONS = st.builds(
    Region, st.integers(-50, 400), st.integers(-50, 3000), st.integers(0, 300), st.integers(0, 900)
)
OFFSETS = st.builds(Offset, st.integers(-30, 30), st.integers(-30, 30))
PLACEMENTS = st.lists(st.tuples(REGIONS, OFFSETS, st.booleans(), st.booleans()), max_size=40)


@given(PLACEMENTS, st.lists(REGIONS, min_size=1, max_size=5))
def test_the_same_regions_and_values_as_textual_s_spatial_map(
    placements: list[tuple[Region, Offset, bool, bool]], queries: list[Region]
) -> None:
    entries = [(region, offset, fixed, overlay, n) for n, (region, offset, fixed, overlay)
               in enumerate(placements)]  # fmt: skip
    textual_map, ours = SpatialMap[int](), ArrangementMap()
    textual_map.insert(entries)
    ours.insert(entries)
    assert ours.total_region == textual_map.total_region
    for query in queries:
        assert ours.get_values_in_region(query) == textual_map.get_values_in_region(query)


def test_the_app_s_arrangements_use_it() -> None:
    from textual import layout

    from agentui.tui.app.app import AgentUIApp  # noqa: F401  # installs it

    assert layout.SpatialMap is ArrangementMap
