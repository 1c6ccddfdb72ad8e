"""What every saved result records about itself: the package version, the scenario's hash, and values made safe for
JSON (numpy scalars and arrays, NaN, paths)."""
from __future__ import annotations

import hashlib
import json
import math
from typing import Any

import numpy as np
import pandas as pd


def package_version() -> str:
    """Installed version of ``balance`` ("unknown" when running from a bare checkout)."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("balance")
    except PackageNotFoundError:
        return "unknown"


def scenario_hash(scenario: Any) -> str | None:
    """Short SHA-256 of a scenario's canonical JSON (sorted keys), or None without a scenario."""
    if scenario is None:
        return None
    text = json.dumps(scenario, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def json_safe(obj: Any) -> Any:
    """``obj`` with NumPy scalars and arrays made plain, NaN/inf and pandas NA made None, tuples made lists."""
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if isinstance(obj, np.ndarray):
        return json_safe(obj.tolist())
    if isinstance(obj, (bool, np.bool_)):
        return bool(obj)
    if isinstance(obj, (int, np.integer)):
        return int(obj)
    if isinstance(obj, (float, np.floating)):
        return float(obj) if math.isfinite(obj) else None
    if obj is None or obj is pd.NA or isinstance(obj, str):
        return None if obj is pd.NA else obj
    return str(obj)
