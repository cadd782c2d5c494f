"""The leader's bonus the common ``[leaders]`` data gives (``bonus_default``,
``bonus_great``: Quincunx +1, Hannibal and Scipio +2; GSB +1), declared once for every engine
that reads it (:mod:`app.rules.leaderfields`). An engine lists it among its leader fields; the
field applies in a ruleset whose data gives leaders a bonus."""

from app.rules.leaderfields import LeaderField
from app.rules.schema import MAX_BONUS, MIN_BONUS

#: a leader's bonus, added to the melee die or missile difference of the unit he is with:
#: his own when set, else the rules' by his name (the ruleset's ``[leaders]`` data)
BONUS = LeaderField(
    "bonus",
    "Bonus",
    "number",
    help="Added to the unit's melee die or missile difference when he is with it",
    cli_help="Quincunx/GSB: +1 or +2 (none: the rules' default by name)",
    minimum=MIN_BONUS,
    maximum=MAX_BONUS,
    choices=(0, 1, 2, 3),
    applies=lambda rs: rs.leaders.gives_bonus(),
    by_rules=lambda rs, name: rs.leaders.bonus_by_name(name),
    undo="Set bonus of {leader} to {value}",
    card="title",
    sheet_width=0.07,
    cli_example="+1 or +2",
)
