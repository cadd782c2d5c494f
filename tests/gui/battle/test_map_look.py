"""A map read at a glance (offscreen): in the battle window at 1280x720, each ruleset's
ready armies open with every unit labelled (inside its base or on a tag beside it, no
label over another unit or label), in its army's colour, with its troop symbol; the
legend names the sides and the symbols; zooming in lays longer labels out; the exported
image carries the labels and the legend, and leaves the screen's labels as they were."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from PySide6.QtCore import QPointF, QRectF, QSettings
from PySide6.QtGui import QColor, QImage
from pytestqt.qtbot import QtBot

from app.core.battle import BattleSession
from app.gui.battle.map.plates import MIN_PX, crosses, edges, overlaps, to_local
from app.gui.battle.map.symbols import symbol_paths
from app.gui.battle.map.unit_item import UnitItem
from app.gui.battle.window import BattleWindow
from app.rules.registry import Registry
from app.rules.schema import Symbol
from tests.builtin import ruleset_ids
from tests.core.battle.test_ready_battles import ready_session
from tests.gui.battle.test_window import open_window

pytestmark = pytest.mark.gui

RULESETS = ruleset_ids()


@pytest.fixture(params=RULESETS)
def ready_window(
    request: pytest.FixtureRequest, qtbot: QtBot, registry: Registry, settings: QSettings
) -> Iterator[BattleWindow]:
    window = open_window(qtbot, ready_session(registry, request.param), settings)
    window.resize(1280, 720)
    qtbot.waitUntil(lambda: window.map.map_scene.ppu > 0)
    window.map.fit_table()
    yield window
    window.close()


def units(window: BattleWindow) -> list[UnitItem]:
    return list(window.map.map_scene.units.values())


def test_the_opening_position_reads_at_a_glance(
    ready_window: BattleWindow, registry: Registry
) -> None:
    window = ready_window
    session: BattleSession = window.controller.session
    items = units(window)
    assert items and all(it.plate.where != "none" for it in items)
    # no label over another unit's base or label
    assert overlaps(items) == []
    # every unit named (full name, short name or abbreviation: never only its id) ...
    assert [it.unit_id for it in items if it.plate.label == it.label.id] == []
    for it in items:
        assert it.plate.label in it.label.variants
        assert it.plate.label in it.plate.text
        # ... in text no smaller than the map's smallest, on the screen
        assert it.plate.font * window.map.map_scene.ppu >= MIN_PX - 1e-6
    # ... with its troop symbol, on its base or its label (a label laid over a small base
    # may hide it: at most one unit in a side's deployed army)
    hidden = [it.unit_id for it in items if it.symbol is not None and it.plate.symbol is None]
    assert len(hidden) <= 1, hidden
    assert all(it.symbol is not None for it in items)
    # ... in its army's colour
    rs = session.ruleset
    for it in items:
        army = rs.army(session.state.sides[it.unit.side].army)
        assert army.colour is not None and it.look.fill == QColor(army.colour)
    # the full name on hover
    for it in items[:3]:
        assert f"<b>{it.unit.name}</b>" in it.toolTip()


def test_rome_keeps_its_colour_on_either_side(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    from app.core.ready import ready_armies, ready_roster

    rs = registry.get("grown-slightly-bald")
    rome, carthage = (ready_roster(rs, ra.army) for ra in ready_armies(rs))
    colours: dict[str, set[str]] = {}
    for rosters in ((rome, carthage), (carthage, rome)):
        window = open_window(
            qtbot, ready_session(registry, "grown-slightly-bald", rosters), settings
        )
        state = window.controller.state
        for it in units(window):
            colours.setdefault(state.sides[it.unit.side].name, set()).add(it.look.fill.name())
        window.close()
    assert colours == {"Rome": {"#a83232"}, "Carthage": {"#5b3b8c"}}


def test_the_legend_names_the_sides_and_the_symbols(ready_window: BattleWindow) -> None:
    legend = ready_window.map.legend
    session = ready_window.controller.session
    text = legend.text()
    for side in session.state.sides:
        assert side.name in text and session.ruleset.army(side.army).name in text
    assert "heavy infantry" in text
    assert legend.isVisible() and legend.width() > 0
    # in the map's bottom left corner
    area = ready_window.map.viewport().geometry()
    assert area.contains(legend.geometry())


def test_zooming_in_lays_longer_labels_out(qtbot: QtBot, ready_window: BattleWindow) -> None:
    view = ready_window.map
    before = {it.unit_id: it.plate.label for it in units(ready_window)}
    view.zoom(3.0)
    # the labels keep their layout while the wheel turns, then are laid out for the zoom
    qtbot.waitUntil(lambda: abs(view.map_scene.ppu - view.transform().m11()) < 1e-9)
    after = {it.unit_id: it.plate.label for it in units(ready_window)}
    grown = [uid for uid in before if len(after[uid]) > len(before[uid])]
    shrunk = [uid for uid in before if len(after[uid]) < len(before[uid])]
    assert not shrunk
    # at three times the zoom most units have room for more, where they had less than
    # their full name
    short = [it.unit_id for it in units(ready_window) if before[it.unit_id] != it.label.full]
    assert len([uid for uid in short if uid in grown]) >= len(short) / 2
    assert overlaps(units(ready_window)) == []


def test_a_units_state_is_on_its_base(qtbot: QtBot, ready_window: BattleWindow) -> None:
    session = ready_window.controller.session
    state = session.state
    first = state.units[0]
    hurt = replace(
        first,
        status=replace(
            first.status,
            strength=max(first.status.strength - 1, 1),
            hits=2,
            rings=1,
            dps=3,
            markers=frozenset({"disordered", "shaken", "moved"}),
        ),
    )
    ready_window.map.show_state(state.replace_unit(hurt), session.mechanics, read_only=True)
    item = ready_window.map.map_scene.units[first.id]
    words = item.plate.text
    assert "2h" in words or "2 hits" in words
    assert "1r" in words or "1 ring" in words
    assert "3DP" in words or "3 DP" in words
    assert ("Dis" in words or "disordered" in words) and ("Shk" in words or "shaken" in words)
    assert "moved" not in words  # the rules' bookkeeping: in the tooltip only
    assert "markers: disordered, moved, shaken" in item.toolTip()
    assert overlaps(units(ready_window)) == []


def test_export_draws_labels_and_legend_and_restores_the_screen(
    ready_window: BattleWindow,
) -> None:
    view = ready_window.map
    plates = {it.unit_id: it.plate for it in units(ready_window)}
    image = view.map_image()
    assert isinstance(image, QImage)
    table = view.map_scene.table_rect
    # the legend below the table
    assert image.height() > image.width() * table.height() / table.width() * 1.05
    assert {it.unit_id: it.plate for it in units(ready_window)} == plates


@pytest.mark.parametrize("symbol", list(Symbol))
def test_every_symbol_is_drawn_in_code(symbol: Symbol) -> None:
    strokes, fills = symbol_paths(symbol)
    assert not (strokes.isEmpty() and fills.isEmpty())
    box = strokes.boundingRect().united(fills.boundingRect())
    assert box.width() <= 1.5 + 1e-6 and box.height() <= 1.0 + 1e-6


def test_symbols_are_told_apart() -> None:
    """No two symbols draw the same shapes."""
    seen: dict[object, Symbol] = {}
    for symbol in Symbol:
        key = tuple(
            tuple(
                (round(p.elementAt(i).x, 3), round(p.elementAt(i).y, 3))
                for i in range(p.elementCount())
            )
            for p in symbol_paths(symbol)
        )
        assert key not in seen, (symbol, seen.get(key))
        seen[key] = symbol


def test_a_unit_moved_onto_a_label_moves_that_label(ready_window: BattleWindow) -> None:
    """After a move only the labels in the way are laid out again, and none is left under
    the unit that moved."""
    view = ready_window.map
    session = ready_window.controller.session
    state = session.state
    scene = view.map_scene
    tagged = [it for it in units(ready_window) if it.plate.where in ("rear", "front")]
    if not tagged:
        pytest.skip("every label is inside its base at this zoom")
    host = tagged[0]
    tag = scene.layout.tags[host.unit_id] if scene.layout else None
    assert tag is not None
    # another unit of the same side, its centre put on the middle of that tag
    mover = next(u for u in state.units if u.side == host.unit.side and u.id != host.unit_id)
    left, top, right, bottom = tag
    x, y = scene.frame.to_table(QPointF((left + right) / 2, (top + bottom) / 2))
    moved = state.replace_unit(replace(mover, x=x, y=y))
    view.show_state(moved, session.mechanics, read_only=True)
    assert overlaps(units(ready_window)) == []
    assert scene.layout is not None
    after = scene.layout.tags.get(host.unit_id)
    assert after != tag  # the host's label went elsewhere (another tag, or inside)


def test_units_alike_share_one_plate_as_each_would_have_alone(
    qtbot: QtBot, registry: Registry
) -> None:
    """A big battle's units alike (the same base, words and symbol) are given one plate,
    laid out once: the very plate each would have been given alone."""
    from app.core.battle.sample import sample_session
    from app.gui.battle.map import BattleMap
    from app.gui.battle.map.plates import _inside_plate
    from app.rules.mechanics import mechanics_for

    rs = registry.get("quincunx")
    mech = mechanics_for(rs)
    state = sample_session(rs, mech).state
    proto = state.units[:6]  # ten of each
    placed = tuple(
        replace(
            proto[i % 6],
            id=f"X{i}",
            side=0 if i % 2 == 0 else 1,
            x=4 + (i % 10) * 7.0,
            y=8 + i // 10,
        )
        for i in range(60)
    )
    view = BattleMap()
    qtbot.addWidget(view)
    view.resize(1280, 720)
    view.show()
    view.show_state(replace(state, units=placed, leaders=()), mech)
    view.fit_table()
    view.zoom(4.0)
    view._sync_zoom()
    scene = view.map_scene
    inside = [it for it in scene.units.values() if it.plate.where == "inside"]
    assert len(inside) > 20
    for it in inside:
        assert it.plate == _inside_plate(it, scene.ppu, scene.text_scale, False)
    # the twins share their plate (one object), and their lines of text
    assert len({id(it.plate) for it in inside}) < len(inside) / 2
    lines = {id(static) for it in inside for _, static in it._lines}
    assert len(lines) == len({text for it in inside for text, _ in it.plate.lines})


def test_a_units_front_is_one_white_band_with_its_notch(ready_window: BattleWindow) -> None:
    """The front of every base is drawn white from the notch's tip down through the band
    along its front edge, in one piece (no seam where the notch meets the band)."""
    from PySide6.QtCore import Qt
    from PySide6.QtGui import QPainter
    from PySide6.QtWidgets import QStyleOptionGraphicsItem

    item = units(ready_window)[0]
    body = item.body
    scale = 400 / body.width()
    image = QImage(600, 600, QImage.Format.Format_ARGB32_Premultiplied)
    image.fill(Qt.GlobalColor.transparent)
    painter = QPainter(image)
    painter.setRenderHint(QPainter.RenderHint.Antialiasing)
    painter.translate(300, 300)
    painter.scale(scale, scale)
    item.paint(painter, QStyleOptionGraphicsItem(), None)
    painter.end()
    tip = 300 + (body.top() - item.notch_height()) * scale
    foot = 300 + (body.top() + item.front_band()) * scale
    assert foot - tip > 10
    white = QColor("#ffffff")
    for x in (300, 300 - int(body.width() * scale * 0.4)):  # the notch's middle, the band's end
        top = tip if x == 300 else 300 + body.top() * scale
        # (the tip's own pixels are partly covered: it is a point)
        assert all(image.pixelColor(x, y) == white for y in range(int(top) + 4, int(foot) - 1))
    assert image.pixelColor(300, int(tip) - 3).alpha() == 0  # nothing above the notch's tip


def test_a_units_look_is_made_as_the_constructor_makes_it(ready_window: BattleWindow) -> None:
    from dataclasses import fields

    from app.gui.battle.map.unit_item import UnitLook

    scene = ready_window.map.map_scene
    for unit in ready_window.controller.state.units[:10]:
        look = scene.unit_look(unit)
        plain = UnitLook(*(getattr(look, f.name) for f in fields(UnitLook)))
        assert type(look) is UnitLook and look == plain
        assert set(vars(look)) == {f.name for f in fields(UnitLook)}
        assert look.label.full == unit.name or look.label.id == unit.id


def test_a_unit_given_a_new_label_is_drawn_again(qtbot: QtBot, ready_window: BattleWindow) -> None:
    """A unit whose label changes is drawn again where it now reaches: a tag behind it (its
    bounds grow: Qt is told before, which has it drawn again) or a new label inside it."""
    from app.gui.battle.map import plates

    ready_window.show()
    qtbot.waitExposed(ready_window)
    scene = ready_window.map.map_scene
    item = units(ready_window)[0]
    seen: list[QRectF] = []
    scene.changed.connect(lambda rects: seen.extend(rects))

    def drawn_again() -> bool:
        where = item.sceneBoundingRect()
        return any(r.intersects(where) for r in seen)

    tag = plates._make_tag(item, item.label.id, "", scene.ppu, 1.0, "rear")
    inside = replace(tag, where="inside")
    for plate in (inside, tag, inside, replace(inside, font=inside.font * 0.9)):
        qtbot.wait(20)
        seen.clear()
        assert item.set_plate(plate)
        qtbot.waitUntil(drawn_again)
        if plate.tag:  # its bounds grew to take the tag in: drawn there too
            box = item.mapRectToScene(plates.to_local(item, plate.box))
            assert any(r.contains(box) for r in seen)


def test_the_map_stacks_its_layers_as_drawn(ready_window: BattleWindow) -> None:
    """The cloth under the terrain, the deployment zones and the grid over them, the units
    over those, their leaders over the units, and the rulers and overlays over all."""
    from PySide6.QtWidgets import QGraphicsItem

    scene = ready_window.map.map_scene

    def z(item: QGraphicsItem) -> float:
        return item.zValue() if item.parentItem() is None else z(item.parentItem()) + 1e-3

    units_z = {z(it) for it in units(ready_window)}
    assert len(units_z) == 1
    (unit_z,) = units_z
    below = [scene.table, scene.zones, scene.grid, *scene.terrain.values()]
    assert all(z(item) < unit_z for item in below)
    assert z(scene.table) < min(z(t) for t in [scene.zones, scene.grid, *scene.terrain.values()])
    assert all(z(leader) > unit_z for leader in scene.leaders.values())
    overlays = ready_window.map.overlays.items.values()
    top = max([unit_z, *(z(leader) for leader in scene.leaders.values())])
    assert all(z(o) > top for o in overlays)


def test_the_labels_layout_tells_overlaps_as_qt_does() -> None:
    """The layout keeps its rectangles as plain edges and tests them itself: it finds an
    overlap exactly where ``QRectF.intersects`` does, edges that only touch, rectangles
    inside others and rectangles with no width or height among them."""
    import random

    rng = random.Random(26)
    values = [0.0, 0.1, 0.25, 0.3, 1.0, 1.1 + 0.2, 1.3, 2.0, -0.7, 1e-9]
    cases = 0
    for _ in range(4000):
        a = QRectF(
            rng.choice(values), rng.choice(values), rng.choice(values[:6]), rng.choice(values[:6])
        )
        b = QRectF(
            rng.choice(values), rng.choice(values), rng.choice(values[:6]), rng.choice(values[:6])
        )
        assert crosses(edges(a), edges(b)) == a.intersects(b), (a, b)
        cases += a.intersects(b)
    # both answers came up many times (the check could fail either way)
    assert 100 < cases < 3900


def test_a_units_bounds_follow_its_tag(qtbot: QtBot, ready_window: BattleWindow) -> None:
    """Qt is told of a unit's new bounds as its label moves onto a tag and back: the scene
    finds the unit under a point of its tag, and not there once the label is inside again."""
    view = ready_window.map
    scene = view.map_scene
    tagged: list[UnitItem] = []
    for _ in range(6):  # out until some label goes onto a tag
        view.zoom(0.7)
        view._sync_zoom()
        tagged = [it for it in units(ready_window) if it.plate.tag]
        if tagged:
            break
    assert tagged, "no label went onto a tag, zoomed out"
    item = tagged[0]
    box = to_local(item, item.plate.box)
    on_tag = item.mapToScene(box.center())
    assert item.boundingRect().contains(item.mapFromScene(on_tag))
    assert item in scene.items(on_tag)
    view.zoom(8.0)
    view._sync_zoom()
    if item.plate.tag:
        pytest.skip("the label is still on a tag at this zoom")
    assert not item.boundingRect().contains(item.mapFromScene(on_tag))
    assert item not in scene.items(on_tag)


def test_a_units_bounds_as_made_are_those_it_works_out(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """A unit is made with the bounds of a base with no label yet, kept once for every base
    of its size: the very bounds it works out itself (the notch, the margin), selected or
    not, targeted or not, and after a label is laid out and taken away again."""
    from PySide6.QtWidgets import QGraphicsScene

    from app.gui.battle.map.frame import Frame
    from app.gui.battle.map.plates import NO_PLATE

    session = ready_session(registry, "quincunx")
    frame = Frame()
    scene = QGraphicsScene()
    for unit in session.state.units[:20]:
        item = UnitItem(unit, frame, "men")
        scene.addItem(item)
        assert item.rect() == item._bounding()
        item.set_selected(True, primary=True)
        item.set_targeted(True)
        item.set_unit(replace(unit, facing=unit.facing + 30), frame)
        assert item.rect() == item._bounding()
        assert item.rect().top() < item.body.top() - 3  # the rotation handle's room
        item.set_selected(False)
        item.set_targeted(False)
        item.set_plate(NO_PLATE)
        item.set_unit(unit, frame)
        assert item.rect() == item._bounding()


def test_a_label_is_prepared_once_for_every_window(
    qtbot: QtBot, registry: Registry, settings: QSettings
) -> None:
    """A line of a label is prepared for drawing once, whichever unit, zoom or window
    shows it: a battle opened again draws its labels without shaping their text again."""
    session = ready_session(registry, "quincunx")
    seen = []
    for _ in range(2):
        window = open_window(qtbot, session, settings)
        window.resize(1280, 720)
        qtbot.waitUntil(lambda w=window: w.map.map_scene.ppu > 0)  # type: ignore[misc]
        window.map.zoom(3.0)
        window.map._sync_zoom()
        seen.append(
            {
                text: static
                for it in units(window)
                for (text, _), (_, static) in zip(it.plate.lines, it._lines, strict=True)
            }
        )
        window.close()
    first, again = seen
    assert first and first.keys() == again.keys()
    assert all(again[text] is static for text, static in first.items())
    assert all(static.text() == text for text, static in first.items())


def test_a_unit_is_made_with_the_classs_starting_values(qtbot: QtBot, registry: Registry) -> None:
    """A unit as made keeps no selection, target, label or tooltip state of its own (the
    class's starting values serve every unit until one changes: fewer writes a unit as a
    big battle opens), and a change to one unit is that unit's alone."""
    from PySide6.QtWidgets import QGraphicsScene

    from app.gui.battle.map.frame import Frame

    session = ready_session(registry, "quincunx")
    scene = QGraphicsScene()
    first, second = (UnitItem(u, Frame(), "men") for u in session.state.units[:2])
    for item in (first, second):
        scene.addItem(item)
        assert not {"selected", "primary", "targeted", "_plate", "_lines"} & set(vars(item))
        assert item.plate.where == "none" and not item.selected and item.look_version == 1
    first.set_selected(True, primary=True)
    first.set_targeted(True)
    assert (first.selected, first.primary, first.targeted) == (True, True, True)
    assert (second.selected, second.primary, second.targeted) == (False, False, False)
    assert UnitItem.selected is False and UnitItem.targeted is False


def test_the_layouts_grid_finds_what_crosses_as_qt_does() -> None:
    """The grid the layout looks overlaps up in answers whether a rectangle crosses one of
    another unit's as ``QRectF.intersects`` does, over rectangles spread across many cells,
    edges that only touch and rectangles with no width or height among them; a unit's own
    rectangles never count."""
    import random

    from app.gui.battle.map.plates import _Grid

    rng = random.Random(26)
    values = [0.0, 0.5, 1.0, 1.5, 2.0, 3.0, 4.5, 7.0, -1.0, 1e-9]
    sizes = [0.0, 0.5, 1.0, 2.5, 4.0]
    placed: list[tuple[QRectF, str]] = []
    grid = _Grid(2.0)
    for n in range(300):
        r = QRectF(rng.choice(values), rng.choice(values), rng.choice(sizes), rng.choice(sizes))
        owner = f"U{n % 40}"
        placed.append((r, owner))
        grid.add(edges(r), owner, tag=n % 3 == 0)
    hits = 0
    for n in range(2000):
        r = QRectF(rng.choice(values), rng.choice(values), rng.choice(sizes), rng.choice(sizes))
        owner = f"U{n % 50}"
        expected = any(o != owner and r.intersects(other) for other, o in placed)
        assert grid.hits(edges(r), owner) == expected, (r, owner)
        hits += expected
    assert 100 < hits < 1900


def test_a_units_bounds_keep_its_margin_and_notch() -> None:
    """The bounds a unit with no tag, not selected nor targeted, is given (kept once a base
    size and zoom) are its base with the label's margin around it and the notch's room in
    front, as worked out."""
    from app.gui.battle.map.unit_item import _base, _margined

    for w, d, px in ((40.0, 20.0, 1.0), (12.5, 30.0, 0.25), (3.0, 3.0, 4.0)):
        body, _, _, rise, bare = _base(w, d)
        m = 2.5 * px
        assert _margined(w, d, px) == body.adjusted(-m, -m - rise, m, m)
        assert _margined(w, d, 1.0) == bare
        assert _margined(w, d, px).top() < body.top() - rise


def test_a_unit_shown_a_new_state_shows_what_a_unit_made_so_shows(
    qtbot: QtBot, registry: Registry
) -> None:
    """A unit given a new state (strength lost, hits, disordered, eliminated, turned and
    moved) shows what a unit made in that state shows: its base, its words, its outline
    and fill, its bounds and place."""
    from PySide6.QtWidgets import QGraphicsScene

    from app.gui.battle.map.frame import Frame

    session = ready_session(registry, "quincunx")
    frame = Frame()
    scene = QGraphicsScene()
    unit = session.state.units[0]
    st = unit.status
    states = [
        replace(unit, status=replace(st, strength=max(st.start_strength - 1, 0), hits=2)),
        replace(unit, status=replace(st, markers=frozenset({"disordered", "shaken"}))),
        replace(unit, status=replace(st, eliminated=True), facing=200.0, x=unit.x + 3),
        replace(unit, facing=95.0, width=unit.width * 2),
        unit,
    ]
    item = UnitItem(unit, frame, "men")
    scene.addItem(item)
    for state in states:
        assert item.set_unit(state, frame)
        made = UnitItem(state, frame, "men")
        scene.addItem(made)
        for name in ("words", "_fraction", "shape_key", "_flip", "span", "_size", "_pen"):
            assert getattr(item, name) == getattr(made, name), (name, state)
        assert item.body == made.body and item.rect() == made.rect()
        assert item.pos() == made.pos() and item.rotation() == made.rotation()
        assert item.opacity() == made.opacity()
        assert item._fill.color() == made._fill.color()
    assert item.look_version == 1 + len(states)
