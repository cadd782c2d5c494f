"""Quincunx (Duke Seifried, 1999): schema, rules helpers and mechanics."""
