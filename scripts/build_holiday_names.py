"""Build src/horologe/data/holiday_names.tsv.gz: which countries' holidays data name each holiday.

Run after upgrading the `holidays` package (or changing how `horologe.core.holiday_names.name_key` reads a name):
`.venv/bin/python scripts/build_holiday_names.py`. A holiday's name that the caller's country does not have is looked
up in every country's data; reading ~250 countries' data takes seconds, so which countries name what is read here
once, and the server then works out the dates only for the few countries that have the name.

Names come in each country's own language, in American English and in horologe's other languages where the package
translates them, over the years YEARS (moving feasts and new holidays included). Rows, tab-separated:
  words of the name's key, sorted, space-separated    countries, comma-separated
"""

from __future__ import annotations

import gzip
from importlib.metadata import version
from pathlib import Path

import holidays

from horologe.core.holiday_names import names_of_country

OUT = Path(__file__).parents[1] / "src" / "horologe" / "data" / "holiday_names.tsv.gz"
YEARS = range(2020, 2036)
LANGUAGES = ("en", "de", "fr", "es", "ja")


def main() -> None:
    having: dict[str, set[str]] = {}
    for code in sorted(holidays.list_supported_countries(include_aliases=False)):
        for language in LANGUAGES:
            for year in YEARS:
                for key in names_of_country(code, year, language):
                    having.setdefault(" ".join(sorted(key)), set()).add(code)
    lines = [f"# holidays {version('holidays')}: which countries' data name each holiday (build_holiday_names.py)"]
    lines += [f"{key}\t{','.join(sorted(codes))}" for key, codes in sorted(having.items())]
    OUT.write_bytes(gzip.compress(("\n".join(lines) + "\n").encode("utf-8"), mtime=0))
    print(f"{OUT}: {len(having)} names")


if __name__ == "__main__":
    main()
