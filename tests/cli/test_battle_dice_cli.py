"""``--dice``: a battle command played with the faces thrown at the table."""

from __future__ import annotations

from tests.cli.test_battle_cli import Battle, Cli, cli, store_file  # noqa: F401  (fixtures)


def gsb_battle(cli: Cli) -> Battle:  # noqa: F811
    a, b = cli.rosters("grown-slightly-bald")
    return Battle.new(cli, a, b, seed=5)


def test_melee_with_given_dice_uses_and_records_them(cli: Cli) -> None:  # noqa: F811
    battle = gsb_battle(cli)
    battle.next_to("Second player's activations")  # Rome's (seed 5: Carthage plays first)
    battle.move_to_contact("A1", "B1")  # a melee needs contact (GSB, Melee)
    battle("act", "activate", "A1")  # and the unit activated (GSB, Turn order)
    before = battle.state()
    # GSB melee: the legionaries throw 5d6 (heavy infantry), the defenders theirs after
    out = battle.refused("melee", "A1", "B1", "--dice", "6,6,6,6")
    assert "5d6 for Legionaries" in out and "only 4 are left" in out
    out = battle.refused("melee", "A1", "B1", "--dice", "6,6,6,6,6")
    assert "ran out" in out and "d6 for" in out and "\n" not in out.strip()
    assert battle.state() == before
    # every die misses: no base lost, so nothing more is thrown
    out = battle("melee", "A1", "B1", "--dice", "1,2,1,2,1")
    assert "roll " in out and "-> 1, 2, 1, 2, 1\n" in out
    assert "Dice thrown at the table, entered by hand." in out
    after = battle.state()
    log = cli.json("battle", "log", battle.id)
    faces = [r["faces"] for r in log[-1]["rolls"]]
    assert faces == [[1, 2, 1, 2, 1]]
    # undo and redo reuse the faces typed in
    battle("undo")
    assert battle.state() == before
    redo = battle("redo")
    assert "-> 1, 2, 1, 2, 1" in redo
    assert battle.state() == after


def test_bad_dice_are_one_line_and_change_nothing(cli: Cli) -> None:  # noqa: F811
    battle = gsb_battle(cli)
    battle.next_to("Second player's activations")  # Rome's (seed 5: Carthage plays first)
    battle.move_to_contact("A1", "B1")  # a melee needs contact (GSB, Melee)
    battle("act", "activate", "A1")  # and the unit activated (GSB, Turn order)
    before = battle.state()
    steps = battle.steps()
    for faces, words in (
        ("7,2,1,2,1", "7 is not a face of"),
        ("1,2,1,2,1,1", "faces were given"),
        ("six", "is not a die face"),
        ("", "no dice faces"),
        ("4;6", "is not a die face"),
    ):
        err = battle.refused("melee", "A1", "B1", "--dice", faces)
        assert words in err, err
        assert err.count("\n") == 1
    assert battle.state() == before and battle.steps() == steps


def test_next_phase_and_side_actions_take_dice(cli: Cli) -> None:  # noqa: F811
    battle = gsb_battle(cli)
    battle.next_to("Second player's activations")
    # the next phase is a new turn's initiative: a d6 a side
    out = battle("next", "--dice", "2,5")
    assert "initiative for Rome: d6 -> 2" in out and "initiative for Carthage: d6 -> 5" in out
    assert battle.state()["initiative"] == 1
    battle.next_to("First player's activations")
    # the third activation needs 1+ on a d10 read 0-9: a 0 fails
    out = battle("act", "activate", "--side", "b", "--set", "nth=3", "--dice", "0")
    assert "fails" in out
