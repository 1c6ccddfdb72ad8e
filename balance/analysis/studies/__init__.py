"""Balance studies: paired runs of scenario variants on common random numbers (:func:`compare`, :func:`sweep`,
:func:`cards`) and anytime-valid decisions about them (:mod:`.sequential`)."""
from .cards import CardValues, cards
from .compare import Comparison, compare
from .sweep import Sweep, sweep

__all__ = ["compare", "Comparison", "sweep", "Sweep", "cards", "CardValues"]
