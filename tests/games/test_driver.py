"""The shared game driver: reading a trace out of a state, and telling where two engines' events part."""
from __future__ import annotations

import json

import numpy as np
import pytest

from balance.games.driver import first_event_difference, json_lines, read_trace


def test_read_trace_copies_the_rows_written_and_refuses_an_overflow():
    state = np.zeros(3 + 5 * 4, np.int64)
    state[0] = 2                                    # rows written
    state[3:13] = np.arange(10)
    events = read_trace(state, trace_at=3, count_at=0, max_rows=4)
    assert events.tolist() == [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9]]
    events[0, 0] = 99
    assert state[3] == 0                            # a copy, not a view of the state
    state[0] = 5
    with pytest.raises(RuntimeError, match="trace overflow: 5 events, room for 4"):
        read_trace(state, trace_at=3, count_at=0, max_rows=4)


def test_first_event_difference_names_the_first_differing_or_missing_event():
    describe = lambda row: f"<{row[0]}>"            # noqa: E731
    same = [(1, 0, 0, 0, 0), (2, 0, 0, 0, 0)]
    assert first_event_difference(np.array(same), same, describe) is None
    other = [(1, 0, 0, 0, 0), (3, 0, 0, 0, 0)]
    assert first_event_difference(np.array(same), other, describe) == "event 1 differs: kernel <2>, reference <3>"
    assert first_event_difference(np.array(same), same[:1], describe) == (
        "event counts differ: kernel 2, reference 1; event 1 only in the kernel: <2>")
    assert first_event_difference(np.array(same[:1]), same, describe) == (
        "event counts differ: kernel 1, reference 2; event 1 only in the reference: <2>")


def test_json_lines_are_one_compact_object_each():
    lines = list(json_lines([{"a": 1, "b": "x\ny"}, {}]))
    assert lines == ['{"a":1,"b":"x\\ny"}', "{}"]
    assert [json.loads(line) for line in lines] == [{"a": 1, "b": "x\ny"}, {}]
