"""Statistics for balance runs: interval estimates on counts and the streaming aggregator of game outcomes."""
from .aggregate import Aggregator
from .tallies import Tallies
from .intervals import (Z95, SeatTest, diff_interval, histogram_moments, histogram_quantile, mean_interval,
                        seat_equality_test, wilson)

__all__ = ["Aggregator", "Tallies", "Z95", "SeatTest", "wilson", "diff_interval", "seat_equality_test",
           "mean_interval", "histogram_moments", "histogram_quantile"]
