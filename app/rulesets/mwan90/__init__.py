"""the MWAN #90 Punic rules (1997): schema, rules helpers and mechanics."""
