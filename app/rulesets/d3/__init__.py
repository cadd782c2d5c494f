"""the D3 Ancient Rules (a One-Hour Wargames variant): schema, rules helpers and mechanics."""
