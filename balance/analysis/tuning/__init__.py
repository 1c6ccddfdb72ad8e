"""``balance tune``: a strategy's documented parameters searched for the values that maximise one seat's, one role's or
the team's win rate, the rest of the table fixed; the result confirmed on games the search never played.

:mod:`.target` says what is tuned and whose wins count, :mod:`.play` plays candidates (here or on a Dask cluster),
:mod:`.search` races them and confirms the leaders, :mod:`.result` holds what was found and writes the fragment."""
from .result import Tuning
from .search import tune
from .target import TuneError

__all__ = ["tune", "Tuning", "TuneError"]
