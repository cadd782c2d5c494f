"""Leg VI Carthago: schema, rules helpers and mechanics."""
