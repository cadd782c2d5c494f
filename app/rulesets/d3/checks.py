"""D3 Ancient Rules: the cross-checks of its data that the schema alone cannot express."""

from __future__ import annotations

from app.rules.dice import parse_dice
from app.rules.errors import Problem
from app.rules.ruleset import Ruleset
from app.rulesets.d3.schema import QUALITIES, Tables, Troop, deck_for

# --------------------------------------------------------------------------- checks


def _check_troops(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    roads = [tt for tt in t.terrain.types.values() if tt.move_bonus > 0]
    for tid, troop in rs.troops.items():
        if not isinstance(troop, Troop):
            out.append(Problem("troops.toml", f"troops.{tid}", "not a D3 troop"))
            continue
        base = f"troops.{tid}"
        for i, terrain_id in enumerate(troop.may_enter):
            terrain = t.terrain.types.get(terrain_id)
            if terrain is None:
                out.append(
                    Problem(
                        "troops.toml", f"{base}.may_enter[{i}]", f"unknown terrain {terrain_id!r}"
                    )
                )
            elif terrain.entry != "listed":
                out.append(
                    Problem(
                        "troops.toml",
                        f"{base}.may_enter[{i}]",
                        f"terrain {terrain_id!r} has entry {terrain.entry!r}; only "
                        "restricted ('listed') terrain is named here",
                    )
                )
        if troop.flank_class is not None and troop.flank_class not in t.combat.flank_rear_bonus:
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.flank_class",
                    f"unknown flank class {troop.flank_class!r} (known: "
                    f"{', '.join(sorted(t.combat.flank_rear_bonus))})",
                )
            )
        if troop.combat_hits is not None and troop.flank_class is None:
            out.append(
                Problem(
                    "troops.toml", f"{base}.flank_class", "a troop that attacks needs a flank class"
                )
            )
        has_shot = troop.shoot_hits is not None
        if troop.shoots != has_shot or troop.shoots != bool(troop.weapons):
            out.append(
                Problem(
                    "troops.toml", f"{base}.shoots", "shoots, shoot_hits and weapons must agree"
                )
            )
        if troop.pivot_only and (troop.move != 0 or troop.road_bonus != 0 or troop.may_charge):
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.move",
                    "a pivot-only troop has move 0, road_bonus 0 and may not charge",
                )
            )
        if not troop.pivot_only and troop.move == 0:
            out.append(Problem("troops.toml", f"{base}.move", "a troop that moves needs a move"))
        if not troop.pivot_only and roads and all(troop.road_bonus != r.move_bonus for r in roads):
            out.append(
                Problem(
                    "troops.toml",
                    f"{base}.road_bonus",
                    f"road_bonus {troop.road_bonus} matches no terrain move_bonus",
                )
            )
    return out


def _check_deck(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    cc = t.chance_cards
    total = sum(card.count for card in cc.cards.values())
    if total != cc.deck_size:
        out.append(
            Problem(
                "tables.toml",
                "chance_cards.cards",
                f"the cards add up to {total}, not deck_size {cc.deck_size}",
            )
        )
    if cc.deck_size != t.sequence.turns * cc.draw_per_turn:
        out.append(
            Problem(
                "tables.toml",
                "chance_cards.deck_size",
                f"deck_size {cc.deck_size} is not one card per turn for {t.sequence.turns} turns",
            )
        )
    sides = {army.side for army in rs.armies.values()}
    for i, sub in enumerate(cc.substitutions):
        path = f"chance_cards.substitutions[{i}]"
        if cc.cards.get(sub.replace) is None or cc.cards[sub.replace].count == 0:
            out.append(
                Problem(
                    "tables.toml",
                    f"{path}.replace",
                    f"card {sub.replace!r} is not in the base deck",
                )
            )
        if sub.add not in cc.cards:
            out.append(Problem("tables.toml", f"{path}.add", f"unknown card {sub.add!r}"))
        if sub.condition == "army_side" and sub.value not in sides:
            out.append(
                Problem(
                    "tables.toml",
                    f"{path}.value",
                    f"no army list has side {sub.value!r} (sides: {', '.join(sorted(sides))})",
                )
            )
    for i, card_id in enumerate(t.commanders.cards_disabled_on_loss):
        if card_id not in cc.cards:
            out.append(
                Problem(
                    "tables.toml",
                    f"commanders.cards_disabled_on_loss[{i}]",
                    f"unknown card {card_id!r}",
                )
            )
    if out:
        return out
    for army_id, army in sorted(rs.armies.items()):
        for quality in QUALITIES:
            for supply in (False, True):
                try:
                    deck = deck_for(
                        t, side=army.side, commander_quality=quality, supply_problems=supply
                    )
                except ValueError as exc:
                    out.append(
                        Problem(
                            "tables.toml",
                            "chance_cards.substitutions",
                            f"army {army_id!r}, {quality} commander, supply "
                            f"problems {supply}: {exc}",
                        )
                    )
                    continue
                if sum(deck.values()) != cc.deck_size:
                    out.append(
                        Problem(
                            "tables.toml",
                            "chance_cards.substitutions",
                            f"army {army_id!r}: the deck is not {cc.deck_size}",
                        )
                    )
    return out


def _check_armies(rs: Ruleset, t: Tables) -> list[Problem]:
    out: list[Problem] = []
    for army_id, army in rs.armies.items():
        base = f"armies.{army_id}"
        for entry_id, entry in army.entries.items():
            if any(size != t.units.bases_per_unit for size in entry.sizes):
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries.{entry_id}.sizes",
                        f"every D3 unit has {t.units.bases_per_unit} bases",
                    )
                )
        mins = sum(e.min for e in army.entries.values())
        if army.max_units is not None and mins > army.max_units:
            out.append(
                Problem(
                    "armies.toml",
                    f"{base}.entries",
                    f"the entry minimums add up to {mins}, over max_units {army.max_units}",
                )
            )
        maxes = [e.max for e in army.entries.values()]
        if army.min_units is not None and None not in maxes:
            top = sum(m for m in maxes if m is not None)
            if top < army.min_units:
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries",
                        f"the entry maximums add up to {top}, under min_units {army.min_units}",
                    )
                )
        if rs.leaders.attach_to:
            hosts = [
                e
                for e in army.entries.values()
                if e.troop in rs.troops and rs.troops[e.troop].category in rs.leaders.attach_to
            ]
            if not hosts:
                out.append(
                    Problem(
                        "armies.toml",
                        f"{base}.entries",
                        "no entry can carry the commander (leaders.attach_to)",
                    )
                )
    return out


def check(rs: Ruleset) -> list[Problem]:
    """Cross-checks the D3 data cannot express alone, each naming file and key path."""
    if not isinstance(rs.tables, Tables):
        return [Problem("tables.toml", "", "not D3 tables")]
    t = rs.tables
    out: list[Problem] = []
    phases = tuple(p.id for p in rs.turn.phases)
    if t.sequence.steps != phases:
        out.append(
            Problem(
                "tables.toml",
                "sequence.steps",
                f"steps {t.sequence.steps} differ from the turn phases {phases}",
            )
        )
    if t.units.unit_width != t.units.base_width * t.units.bases_per_unit:
        out.append(
            Problem(
                "tables.toml", "units.unit_width", "unit_width is not bases_per_unit x base_width"
            )
        )
    faces = parse_faces(t.berserk.dice)
    rolls = sorted(row.roll for row in t.berserk.rows)
    if rolls != faces:
        out.append(
            Problem(
                "tables.toml",
                "berserk.rows",
                f"rows cover rolls {rolls}; {t.berserk.dice} gives {faces}",
            )
        )
    out += _check_troops(rs, t)
    out += _check_deck(rs, t)
    out += _check_armies(rs, t)
    return out


def parse_faces(dice: str) -> list[int]:
    """Every total one roll of ``dice`` can give, sorted (``d3`` -> [1, 2, 3])."""
    spec = parse_dice(dice)
    lo = spec.count * min(spec.faces) + spec.modifier
    hi = spec.count * max(spec.faces) + spec.modifier
    return list(range(lo, hi + 1))
