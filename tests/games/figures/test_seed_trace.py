"""The seed trace (section 5 of the Figures spec): every seed statement leads to rules with tests.

Each trace row lists the spec rules and rulings that implement it; this test checks that each of
those has at least one test named after it (``test_2_4_...``, ``test_R9_...``), so the coverage of
the seed stays visible as tests are renamed or removed.
"""

from __future__ import annotations

import importlib
import re
from pathlib import Path

import pytest

SEED_TRACE = {
    "T1": ["1.1", "1.5", "R7", "R35"],
    "T2": ["1.6", "1.7", "R8"],
    "T3": ["1.8", "2.4"],
    "T4": ["2.4", "1.4", "R9", "R10", "R11"],
    "T5": ["2.5", "2.6", "R13", "R19"],
    "T6": ["2.4", "2.5", "R12"],
    "T7": ["R2"],
    "T8": ["2.5", "R14"],
    "T9": ["2.6", "R15", "R16", "R17", "R31"],
    "T10": ["R3", "2.11"],
    "T11": ["2.4", "R12", "R2"],
    "T12": ["R2", "R6"],
    "T13": ["2.6", "R18"],
    "T14": ["2.8", "R23", "R25"],
    "T15": ["2.8", "R24"],
    "T16": ["R2"],
    "T17": ["2.3", "2.7", "R20", "R21", "R22"],
    "T18": ["R4"],
    "T19": ["2.9", "R26", "R27"],
    "T20": ["R3", "2.11"],
    "T21": ["3.2", "R29"],
    "T22": ["R5", "E6"],
    "T23": ["3.1"],
    "T24": ["3.1", "R28"],
    "T25": ["E5", "R28"],
    "silences": ["R8", "R21", "R18", "R25", "R30", "R32", "R33", "R34", "R35"],
}


def _test_names() -> list[str]:
    names: list[str] = []
    for path in Path(__file__).parent.glob("test_*.py"):
        module = importlib.import_module(f"{__package__}.{path.stem}")
        names.extend(name for name in dir(module) if name.startswith("test_"))
    return names


@pytest.mark.parametrize(("row", "rules"), list(SEED_TRACE.items()))
def test_seed_trace_rows_have_tests(row, rules):
    names = _test_names()
    for rule in rules:
        tag = rule.replace(".", "_")
        pattern = re.compile(rf"_{tag}(_|[a-z]|$)" if rule[0] == "E" else rf"_{tag}_")
        assert any(pattern.search(name) for name in names), f"{row}: no test for {rule}"
