"""`python -m horologe`."""

from horologe.cli import main

raise SystemExit(main())
