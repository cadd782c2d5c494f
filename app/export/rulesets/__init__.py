"""Each ruleset's printed parts, one module per engine package of :mod:`app.rulesets`: the body
of its quick-reference sheet (``story``) and the ruleset-specific face of its unit cards
(``face``)."""
