"""Draws the app's PNG icons (web/icons/icon-192.png, icon-512.png) from the same shapes as web/icon.svg:
a rounded square in Hearth's colour with a house. Standard library only (zlib); run it after changing the icon."""
import os, struct, sys, zlib

ACCENT, LIGHT = (0xB4, 0x53, 0x2A), (0xFB, 0xF8, 0xF4)
# The house of icon.svg, in its 64×64 box: M32 12 10 30h6v20h12V38h8v12h12V30h6z
HOUSE = [(32, 12), (10, 30), (16, 30), (16, 50), (28, 50), (28, 38), (36, 38), (36, 50), (48, 50), (48, 30), (54, 30)]


def inside(polygon, x, y):
    hit = False
    for (x1, y1), (x2, y2) in zip(polygon, polygon[1:] + polygon[:1]):
        if (y1 > y) != (y2 > y) and x < x1 + (y - y1) * (x2 - x1) / (y2 - y1):
            hit = not hit
    return hit


def pixel(x, y, samples=3):
    """RGBA of a pixel, 3×3 samples for smooth edges; maskable: the background fills the whole square."""
    colour = [0.0, 0.0, 0.0]
    for i in range(samples):
        for j in range(samples):
            u, v = x + (i + 0.5) / samples, y + (j + 0.5) / samples
            source = LIGHT if inside(HOUSE, u, v) else ACCENT
            for k in range(3):
                colour[k] += source[k]
    return bytes(round(c / samples ** 2) for c in colour) + b"\xff"


def png(size):
    scale = 64 / size
    rows = b"".join(b"\x00" + b"".join(pixel(x * scale, y * scale) for x in range(size)) for y in range(size))
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", size, size, 8, 6, 0, 0, 0)) + \
        chunk(b"IDAT", zlib.compress(rows, 9)) + chunk(b"IEND", b"")


root = os.path.join(os.path.dirname(__file__), "../../web/icons")
for size in (192, 512):
    with open(os.path.join(root, f"icon-{size}.png"), "wb") as file:
        file.write(png(size))
    print(f"web/icons/icon-{size}.png", file=sys.stderr)
