"""A ruleset folder's files: the five TOML files in the loader's fixed order, and the size
one may have. The loader reads them (:mod:`app.rules.loader`), and the fingerprint of a
folder hashes them (:mod:`app.rules.fingerprint`)."""

FILES = ("ruleset.toml", "troops.toml", "tables.toml", "armies.toml", "errata.toml")
MAX_FILE_BYTES = 1_000_000
