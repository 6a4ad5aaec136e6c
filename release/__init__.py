"""What a release ships beyond the wheel and the sdist, built from the package itself: the MCP Registry's
`server.json`, the MCP Bundle (`.mcpb`), the image's build context; and the identity every published file names.

`python -m release --help` lists the commands the Makefile runs (`make dist`); `make release-check` builds everything
and runs `tests/release`, which validates each artefact and smoke-runs it from a fresh cache.
"""
