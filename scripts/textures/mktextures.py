#!/usr/bin/env python3
# mktextures.py - writes the synthetic disc's checker textures (64x64 PNG).
#
# Each material family gets a two-tone checker in its own colours with
# orientation marks, so a renderer that flips V or picks the wrong UV set
# shows it at a glance:
#   - a red bar along the top edge (v = 0 is the top of the image, as the
#     research note says), a green bar along the left edge (u = 0);
#   - an "F" in the top-left square (mirrored in either axis it reads
#     wrong), and the family's letter in the bottom-right square.
# The PNGs are committed; run this only to change them:
#   python3 scripts/textures/mktextures.py scripts/textures
import os
import struct
import sys
import zlib

SIZE = 64
CELL = 16

# family: (letter, light colour, dark colour)
FAMILIES = [
    ("brick", "B", (178, 84, 60), (128, 52, 38)),
    ("window", "W", (120, 160, 200), (60, 84, 120)),
    ("roof", "R", (150, 60, 50), (90, 36, 32)),
    ("asphalt", "A", (96, 96, 100), (56, 56, 60)),
    ("grass", "G", (96, 168, 72), (56, 112, 40)),
    ("rock", "K", (150, 136, 116), (100, 90, 76)),
    ("concrete", "C", (200, 200, 192), (150, 150, 144)),
    ("metal", "M", (140, 160, 176), (84, 100, 116)),
    ("wood", "D", (196, 140, 80), (140, 92, 48)),
    ("bark", "T", (112, 80, 56), (72, 50, 34)),
    ("leaves", "L", (120, 180, 60), (70, 120, 30)),
    ("glow", "O", (255, 236, 160), (232, 200, 100)),
    ("plain", "P", (224, 224, 224), (176, 176, 176)),
    ("lightmap", "X", (236, 232, 220), (196, 192, 184)),
]

# 5x7 glyphs, one string per row, '#' is ink
GLYPHS = {
    "F": ["#####", "#....", "#....", "####.", "#....", "#....", "#...."],
    "B": ["####.", "#...#", "#...#", "####.", "#...#", "#...#", "####."],
    "W": ["#...#", "#...#", "#...#", "#.#.#", "#.#.#", "##.##", "#...#"],
    "R": ["####.", "#...#", "#...#", "####.", "#.#..", "#..#.", "#...#"],
    "A": [".###.", "#...#", "#...#", "#####", "#...#", "#...#", "#...#"],
    "G": [".###.", "#...#", "#....", "#.###", "#...#", "#...#", ".###."],
    "K": ["#...#", "#..#.", "#.#..", "##...", "#.#..", "#..#.", "#...#"],
    "C": [".###.", "#...#", "#....", "#....", "#....", "#...#", ".###."],
    "M": ["#...#", "##.##", "#.#.#", "#.#.#", "#...#", "#...#", "#...#"],
    "D": ["####.", "#...#", "#...#", "#...#", "#...#", "#...#", "####."],
    "T": ["#####", "..#..", "..#..", "..#..", "..#..", "..#..", "..#.."],
    "L": ["#....", "#....", "#....", "#....", "#....", "#....", "#####"],
    "O": [".###.", "#...#", "#...#", "#...#", "#...#", "#...#", ".###."],
    "P": ["####.", "#...#", "#...#", "####.", "#....", "#....", "#...."],
    "X": ["#...#", "#...#", ".#.#.", "..#..", ".#.#.", "#...#", "#...#"],
}


def glyph(img, ch, x0, y0, colour):
    """Draws ch at (x0, y0), each glyph pixel 2x2 image pixels."""
    for gy, row in enumerate(GLYPHS[ch]):
        for gx, c in enumerate(row):
            if c == "#":
                for dy in range(2):
                    for dx in range(2):
                        img[y0 + 2 * gy + dy][x0 + 2 * gx + dx] = colour


def texture(letter, light, dark):
    img = [[light if ((x // CELL) + (y // CELL)) % 2 == 0 else dark
            for x in range(SIZE)] for y in range(SIZE)]
    for i in range(SIZE):
        for t in range(2):
            img[t][i] = (220, 20, 20)      # top bar: v = 0
            img[i][t] = (20, 200, 20)      # left bar: u = 0
    glyph(img, "F", 4, 2, (16, 16, 16))
    glyph(img, letter, SIZE - CELL + 3, SIZE - CELL + 1, (250, 250, 250))
    return img


def png(img):
    def chunk(kind, data):
        body = kind + data
        return (struct.pack(">I", len(data)) + body +
                struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF))
    raw = b"".join(b"\0" + bytes(c for px in row for c in px)
                   for row in img)
    head = struct.pack(">IIBBBBB", SIZE, SIZE, 8, 2, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", head) +
            chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b""))


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(
        os.path.abspath(__file__))
    for name, letter, light, dark in FAMILIES:
        with open(os.path.join(out, name + ".png"), "wb") as f:
            f.write(png(texture(letter, light, dark)))


if __name__ == "__main__":
    main()
