"""Pure time domain: values and functions with no I/O, no clock reads and no MCP.

Everything the core needs (the current instant, the zone, the policy) arrives as an argument.
Reading the IANA database that ships with the `tzdata` package is allowed: it is static
reference data, the same bytes `zoneinfo` itself reads.
"""
