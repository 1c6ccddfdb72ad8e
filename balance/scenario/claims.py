"""The ``[checks]`` table of a scenario: balance claims ``balance check`` decides (format: docs/scenarios.md)."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, field_validator

Range = list[float]


def _range(value: list[float], lo: float | None = None, hi: float | None = None) -> list[float]:
    allowed = "[low, high] with low <= high" + (f", both from {lo:g} to {hi:g}" if lo is not None else "")
    if len(value) != 2 or value[0] > value[1] or (lo is not None and not (lo <= value[0] and value[1] <= hi)):
        raise ValueError(f"not a range (allowed: {allowed})")
    return [float(v) for v in value]


class Checks(BaseModel):
    """Balance claims, each decided by ``balance check`` with an anytime-valid 95% interval."""

    model_config = ConfigDict(extra="forbid", frozen=True)
    seat_gap_max: float | None = Field(None, ge=0, le=1, description=(
        "the largest difference between two seats' win rates is at most this (competitive games)"))
    role_gap_max: float | None = Field(None, ge=0, le=1, description=(
        "no role's win rate (The Haunted Tower: each hero's) is further than this from the mean of the roles' win "
        "rates (games with roles)"))
    length_mean: Range | None = Field(None, description="mean game length in turns lies in [low, high]")
    victory_share: dict[str, Range] | None = Field(None, description=(
        "share of all games ended each way lies in [low, high], per victory kind"))
    item_lift_max: float | None = Field(None, ge=0, le=1, description=(
        "no item's win-rate difference (used against not used, first counter group) is larger than this, "
        "in either direction"))
    strategy_order: list[str] | None = Field(None, min_length=2, description=(
        "these strategies, strongest first: each wins more often than the next (not applicable to a lineup that "
        "lacks one of them)"))
    win_rate: Range | None = Field(None, description="the team's win rate lies in [low, high] (co-operative games)")

    @field_validator("length_mean")
    @classmethod
    def _length(cls, v):
        return None if v is None else _range(v, 0, 1e9)

    @field_validator("win_rate")
    @classmethod
    def _rate(cls, v):
        return None if v is None else _range(v, 0, 1)

    @field_validator("victory_share")
    @classmethod
    def _shares(cls, v):
        return None if v is None else {k: _range(r, 0, 1) for k, r in v.items()}

    def given(self) -> dict:
        """The claims the scenario makes, in the TOML format (keys left out are not claimed)."""
        return self.model_dump(mode="json", exclude_none=True)
