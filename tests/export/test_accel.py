"""reportlab runs with its C accelerator (rl-accel, a dependency): without it, it falls back
to pure Python and cards print about half as fast."""

from __future__ import annotations


def test_reportlab_uses_its_c_accelerator() -> None:
    from reportlab.lib import rl_accel

    assert rl_accel.fp_str.__module__ == "_rl_accel"
    assert rl_accel.unicode2T1.__module__ == "_rl_accel"
