"""The collector settings of a serving process (run in a child process: they change the whole process)."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

pytestmark = pytest.mark.e2e  # a child process: the settings change the whole process

PROGRAM = """
import gc, json
from horologe.heap import settle_after_startup
from horologe.config import load_settings
from horologe.http.app import create_app

create_app(load_settings())
settle_after_startup()
frozen = gc.get_freeze_count()

class Node:
    pass

node = Node()
node.self = node  # a cycle made while serving
del node
print(json.dumps({"frozen": frozen, "tracked_after": len(gc.get_objects()), "collected": gc.collect()}))
"""


def test_start_up_objects_are_frozen_and_later_cycles_are_still_collected() -> None:
    completed = subprocess.run([sys.executable, "-c", PROGRAM], capture_output=True, text=True, timeout=120, check=True)
    report = json.loads(completed.stdout.strip().splitlines()[-1])
    assert report["frozen"] > 50_000  # the SDK's and our models, schemas and tzdata
    assert report["tracked_after"] < report["frozen"] / 5  # full collections no longer walk start-up objects
    assert report["collected"] >= 1  # the cycle made after start-up
