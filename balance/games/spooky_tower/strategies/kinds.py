"""Strategy kinds (``layout.KINDS`` per seat) and the purposes of a target choice."""
from __future__ import annotations

RANDOM = 0
GHOST_HUNTER = 1
COLLECTOR = 2
CLOCK_RUSHER = 3
SCRIPTED = 9         # tests only: decisions read from the choice script (then: reroll only when stuck, index 0,
                     # Park yes)

TARGET_TAKE = 0
TARGET_FLIP = 1
