"""Draw release/icon.png, horologe's 512x512 icon (the MCP Bundle's and the registry's): a clock at ten past ten.

Pure Python (no imaging library): every pixel is the shapes' signed distances turned into coverage, so edges are
smooth. Run from the repository root: .venv/bin/python scripts/draw_icon.py
"""

from __future__ import annotations

import math
import struct
import zlib
from pathlib import Path

SIZE = 512
NAVY = (30, 58, 95)
CREAM = (247, 243, 232)
GOLD = (224, 165, 38)


def segment_distance(x: float, y: float, ax: float, ay: float, bx: float, by: float) -> float:
    """Distance from (x, y) to the segment a-b."""
    dx, dy = bx - ax, by - ay
    t = max(0.0, min(1.0, ((x - ax) * dx + (y - ay) * dy) / (dx * dx + dy * dy)))
    return math.hypot(x - ax - t * dx, y - ay - t * dy)


def hand(angle_degrees: float, length: float) -> tuple[float, float, float, float]:
    """A hand from the centre, at `angle_degrees` clockwise from twelve."""
    angle = math.radians(angle_degrees)
    return (256.0, 256.0, 256 + length * math.sin(angle), 256 - length * math.cos(angle))


def shapes(x: float, y: float) -> list[tuple[float, tuple[int, int, int]]]:
    """(signed distance, colour) of each shape at (x, y), back to front; inside is negative."""
    corner = 100.0
    qx, qy = abs(x - 256) - (256 - corner), abs(y - 256) - (256 - corner)
    square = math.hypot(max(qx, 0.0), max(qy, 0.0)) + min(max(qx, qy), 0.0) - corner
    radius = math.hypot(x - 256, y - 256)
    found = [(square, NAVY), (radius - 196, GOLD), (radius - 180, CREAM)]
    for tick in range(12):
        major = tick % 3 == 0
        start, end = hand(tick * 30, 138 if major else 150)[2:], hand(tick * 30, 166)[2:]
        found.append((segment_distance(x, y, *start, *end) - (9 if major else 5), NAVY))
    found.append((segment_distance(x, y, *hand(300, 92)) - 12, NAVY))  # the hour hand at ten
    found.append((segment_distance(x, y, *hand(60, 128)) - 8, NAVY))  # the minute hand at two
    found.append((radius - 18, GOLD))
    return found


def pixel(x: int, y: int) -> bytes:
    """The pixel's RGBA: each shape laid over the ones behind it with its coverage."""
    red = green = blue = alpha = 0.0
    for distance, (r, g, b) in shapes(x + 0.5, y + 0.5):
        cover = max(0.0, min(1.0, 0.5 - distance))
        if cover:
            red, green, blue = (
                red * (1 - cover) + r * cover,
                green * (1 - cover) + g * cover,
                blue * (1 - cover) + b * cover,
            )
            alpha = alpha * (1 - cover) + cover
    if alpha:  # the sums are premultiplied by coverage: divide it out
        red, green, blue = red / alpha, green / alpha, blue / alpha
    return bytes((round(red), round(green), round(blue), round(alpha * 255)))


def png(rows: list[bytes]) -> bytes:
    """An RGBA PNG of the rows."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))

    header = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 6, 0, 0, 0)
    raw = b"".join(b"\x00" + row for row in rows)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


if __name__ == "__main__":
    rows = [b"".join(pixel(x, y) for x in range(SIZE)) for y in range(SIZE)]
    target = Path("release/icon.png")
    target.write_bytes(png(rows))
    print(target, target.stat().st_size, "bytes")
