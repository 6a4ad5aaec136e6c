"""What a server reads of the machine it runs on: the host's timezone (tzlocal; UTC with a warning when it cannot
be told) and where the user's local preferences file lives."""

from __future__ import annotations

import logging
from pathlib import Path

from horologe.core.errors import TimeError
from horologe.core.zones import resolve_zone

logger = logging.getLogger("horologe")


def host_zone_name() -> str:
    """The IANA name of the host's zone, or 'UTC' when it cannot be determined."""
    try:
        import tzlocal

        name = tzlocal.get_localzone_name()
    except Exception as exc:  # tzlocal raises several kinds on misconfigured hosts
        logger.warning("could not detect the host timezone (%s); using UTC", exc)
        return "UTC"
    if not name:
        logger.warning("the host timezone has no IANA name; using UTC")
        return "UTC"
    try:
        resolve_zone(name, source="database")
    except TimeError:
        logger.warning("the host timezone %r is not in the tzdata in use; using UTC", name)
        return "UTC"
    return name


def preferences_path() -> Path:
    """The local preferences file in the user's state directory (XDG_STATE_HOME on Linux, via platformdirs)."""
    import platformdirs  # loaded only by a stdio server that keeps preferences itself

    return Path(platformdirs.user_state_dir("horologe")) / "preferences.json"
