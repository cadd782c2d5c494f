"""The code of each ruleset, one package per engine: its schema (the typed tables and troop
types of its ``tables.toml`` and ``troops.toml``, with the cross-checks the data alone cannot
express), its pure rules helpers and its mechanics (the hooks of
:class:`app.rules.mechanics.Mechanics`). The data stays in ``rulesets/<id>/`` as TOML; a
house-rules copy names the engine it uses and never brings code of its own."""
