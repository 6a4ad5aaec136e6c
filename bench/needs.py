"""What a benchmark needs from outside the repository, checked before it starts anything."""

from __future__ import annotations

import sys
from pathlib import Path


def require_shared(shared: Path, *files: str) -> None:
    """Exit with one line naming the missing files when the project's shared tools (../shared) are not there."""
    missing = [str(shared / name) for name in files if not (shared / name).is_file()]
    if missing:
        sys.exit(
            f"{Path(sys.argv[0]).name}: missing {', '.join(missing)}: this benchmark drives the project's shared "
            "tools (the workspace's ../shared, not part of the repository); pass --shared DIR where they are"
        )
