"""Debian's `zic` and `zdump` (libc-bin) on the tzdata package's own `tzdata.zi`, in a temporary directory.

Two compilations: the source as shipped, and the same source with every SAVE set to 0. zdump on the second gives
each instant's standard offset as zic reads it (its UTC offset is then the Zone line's STDOFF), which no TZif file
records otherwise. Nothing is installed: the zones are written under a directory the caller owns and read with
TZDIR pointing there.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import subprocess
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from datetime import UTC, datetime
from importlib.resources import files
from pathlib import Path

_OFFSET = re.compile(r"([+-])(\d\d)(\d\d)?(\d\d)?")


class ZicMissing(RuntimeError):
    """zic or zdump is not installed (scripts/install-test-deps installs libc-bin on Debian)."""


@dataclass(frozen=True, slots=True)
class Period:
    """What zdump says holds from `start` (UT seconds; None: from the window's start) to the next period."""

    start: int | None
    utoff: int
    abbreviation: str
    isdst: bool


def tools() -> tuple[str, str]:
    """The paths of zic and zdump (Debian puts zic in /usr/sbin, which is not on every PATH)."""
    found = [shutil.which(name, path=f"{os.environ.get('PATH', '')}:/usr/sbin:/sbin") for name in ("zic", "zdump")]
    if found[0] is None or found[1] is None:
        raise ZicMissing("zic and zdump are needed (Debian: apt-get install libc-bin; see scripts/install-test-deps)")
    return found[0], found[1]


def source() -> str:
    """The text of the tzdata package's own `tzdata.zi` (the database's rules, as zic reads them)."""
    return files("tzdata").joinpath("zoneinfo", "tzdata.zi").read_text(encoding="utf-8")


def zero_saves(text: str) -> str:
    """The source with every Rule's SAVE and every Zone line's fixed SAVE set to 0 (STDOFF, formats unchanged)."""
    lines, continued = [], False
    for line in text.splitlines():
        fields = line.split()
        if not fields or fields[0].startswith("#"):
            lines.append(line)
            continue
        if fields[0] == "R":
            fields[8] = "0"
            lines.append(" ".join(fields))
            continue
        if fields[0] != "Z" and not continued:
            lines.append(line)
            continue
        index = 1 if continued else 3
        rules = fields[index]
        if rules != "-" and (rules[0].isdigit() or rules[0] in "+-"):
            fields[index] = "0"
        continued = len(fields) > index + 2  # an UNTIL field: a continuation line follows
        lines.append(" ".join(fields))
    return "\n".join(lines) + "\n"


def compile_source(text: str, directory: Path) -> Path:
    """Compile zic source `text` into `directory` (created); returns it."""
    zic, _ = tools()
    directory.mkdir(parents=True, exist_ok=True)
    source = directory.with_suffix(".zi")
    source.write_text(text, encoding="utf-8")
    subprocess.run([zic, "-d", str(directory), str(source)], check=True, capture_output=True, timeout=120)
    return directory


def dump(directory: Path, names: list[str], first_year: int, end_year: int) -> dict[str, list[Period]]:
    """zdump -i over [first_year, end_year) for `names` compiled in `directory`, as periods per zone."""
    return parse_intervals(_dump_text(directory, names, first_year, end_year))


def _dump_text(directory: Path, names: list[str], first_year: int, end_year: int) -> str:
    _, zdump = tools()
    command = [zdump, "-i", "-c", f"{first_year},{end_year}", *names]
    environment = {"TZDIR": str(directory), "PATH": os.environ.get("PATH", ""), "LC_ALL": "C"}
    output = subprocess.run(command, env=environment, check=True, capture_output=True, text=True, timeout=600)
    return output.stdout


def compile_both(text: str, scratch: Path) -> tuple[Path, Path]:
    """The two compilations of `text` under `scratch`: as written, and with every SAVE 0."""
    return compile_source(text, scratch / "real"), compile_source(zero_saves(text), scratch / "zero")


def dump_texts(text: str, names: list[str], first_year: int, end_year: int, scratch: Path) -> tuple[str, str]:
    """zdump -i's output for `names` over [first_year, end_year) in both compilations of `text` (`compile_both`)
    made under `scratch` (two zdump processes at once: zdump's search is the slow part)."""
    directories = compile_both(text, scratch)
    with ThreadPoolExecutor(max_workers=2) as pool:
        first, second = (pool.submit(_dump_text, path, names, first_year, end_year) for path in directories)
        return first.result(), second.result()


def inputs_digest(text: str, names: list[str], first_year: int, end_year: int) -> str:
    """A digest of everything `dump_texts` answers from: the source, the names, the years, and the zic and zdump
    programs themselves (their bytes). Equal digests, equal output: zdump's answers can be kept and read back."""
    digest = hashlib.sha256()
    for part in (text, "\n".join(names), f"{first_year},{end_year}"):
        digest.update(part.encode())
        digest.update(b"\0")
    for program in tools():
        digest.update(Path(program).read_bytes())
    return digest.hexdigest()


def parse_intervals(text: str) -> dict[str, list[Period]]:
    """zdump's -i format: a TZ="name" header, then 'date time offset [abbreviation] [1]' lines (local times).

    The first line of a zone ('-' for date and time) is the state at the start of the window.
    """
    zones: dict[str, list[Period]] = {}
    current: list[Period] = []
    for line in text.splitlines():
        if line.startswith("TZ="):
            current = zones.setdefault(line[4:-1], [])
            continue
        fields = line.split("\t")
        if len(fields) < 3:
            continue
        utoff, rest = _seconds(fields[2]), fields[3:]
        # The abbreviation is left out (or empty) when it is the offset itself, quoted when it is not alphabetic.
        isdst = len(rest) == 2 or rest == ["1"]
        named = (rest[0] if rest and rest != ["1"] else "").strip('"') or fields[2]
        start = None if fields[0] == "-" else _local_seconds(fields[0], fields[1]) - utoff
        current.append(Period(start, utoff, named, isdst))
    return zones


def _seconds(offset: str) -> int:
    match = _OFFSET.fullmatch(offset)
    if match is None:
        raise ValueError(f"zdump printed an offset {offset!r} this reader does not know")
    sign, hours, minutes, seconds = match.groups()
    value = int(hours) * 3600 + int(minutes or 0) * 60 + int(seconds or 0)
    return -value if sign == "-" else value


def _local_seconds(day: str, clock: str) -> int:
    parts = [int(part) for part in clock.split(":")] + [0, 0]
    local = datetime.fromisoformat(day).replace(hour=0, tzinfo=UTC)
    return int(local.timestamp()) + parts[0] * 3600 + parts[1] * 60 + parts[2]


def state_at(periods: list[Period], ts: int) -> Period:
    """The period holding at `ts` (the window's first period before every listed change)."""
    found = periods[0]
    for period in periods[1:]:
        if period.start is not None and period.start <= ts:
            found = period
        else:
            break
    return found
