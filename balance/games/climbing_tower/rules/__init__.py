"""Climbing Tower rule kernel: whole games in nopython Numba, arrays in and arrays out.

A game: set-up (``setup``), then rounds up to the round limit (``rounds``), each a play phase (``play``), a build
phase and a next-round phase (``build``). Every choice a rule leaves to the players is a call into ``strategies``,
after the kernel has filled the deciding seat's view; the open rule points are read from the compiled options
(``docs/rules/climbing_tower.md``). The game ends the moment the BOSS falls (the team wins) or after the last round's
play phase (the team loses). ``simulate`` holds the entry points: the parallel driver, one traced game, the test
hooks.

Every rule function here (and in ``strategies``) is ``rules_jit_flat``, where the other games use ``rules_jit``:
LLVM inlines each into every caller, so an entry point is one flat function with no Numba calling convention (a
status word, results through pointers) left in the turn loop. Measured when it was chosen (one thread, games per
CPU-second): Climbing Tower played about 197,000 games flat against 158,000 with plain calls, for the same cold
compile (22 s against 21 s); Spooky Tower flat ran 6.5% slower and The Haunted Tower flat compiled 17 s longer for
no speed, so they keep ``rules_jit`` (``balance/core/jit.py``).
"""
from __future__ import annotations

from .simulate import script_choices, script_deals, seat_lineup_nb, simulate_nb, trace_game, trace_game_nb

__all__ = ["script_choices", "script_deals", "seat_lineup_nb", "simulate_nb", "trace_game", "trace_game_nb"]
