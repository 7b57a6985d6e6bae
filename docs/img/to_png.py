"""Turns docs/img/render_faces.py's faces into PNGs, 3x, OLED blue: /tmp/faces.raw (two faces) into
docs/img/faces.png, /tmp/faces-<lang>.raw (six faces, two by two) into docs/img/faces-kk.png and the others."""

import os
import struct
import sys
import zlib

W, H, S, GAP = 128, 64, 3, 16
HERE = os.path.dirname(os.path.abspath(__file__))


def png(faces: list, cols: int) -> bytes:
    """The faces (each 1024 bytes as the SSD1306 holds them: 8 pages of 128 columns, a byte a column
    of 8 rows, the top row in bit 0) as a PNG, `cols` faces a row."""
    rows = (len(faces) + cols - 1) // cols
    w = W * cols * S + GAP * (cols + 1)
    h = H * rows * S + GAP * (rows + 1)
    img = [[(40, 40, 40)] * w for _ in range(h)]
    for fi, f in enumerate(faces):
        ox = GAP + fi % cols * (W * S + GAP)
        oy = GAP + fi // cols * (H * S + GAP)
        for y in range(H):
            for x in range(W):
                on = f[y // 8 * W + x] >> (y % 8) & 1
                col = (120, 200, 255) if on else (0, 0, 0)
                for dy in range(S):
                    row = img[oy + y * S + dy]
                    for dx in range(S):
                        row[ox + x * S + dx] = col
    data = b"".join(b"\x00" + bytes(v for px in r for v in px) for r in img)

    def chunk(t: bytes, d: bytes) -> bytes:
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    out = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    return out + chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b"")


def _faces(path: str) -> list:
    raw = open(path, "rb").read()
    return [raw[i:i + 1024] for i in range(0, len(raw), 1024)]


def main(raw: str = "/tmp", out: str = HERE) -> None:
    open(os.path.join(out, "faces.png"), "wb").write(png(_faces(os.path.join(raw, "faces.raw")), 2))
    for lang in ("en", "kk", "ru", "ky"):
        faces = _faces(os.path.join(raw, "faces-%s.raw" % lang))
        open(os.path.join(out, "faces-%s.png" % lang), "wb").write(png(faces, 2))


if __name__ == "__main__":
    main(*sys.argv[1:3])
