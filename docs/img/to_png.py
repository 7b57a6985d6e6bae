"""Turns /tmp/faces.raw (docs/img/render_faces.py) into docs/img/faces.png, 3x, OLED blue."""

import os
import struct
import zlib

W, H, S, GAP = 128, 64, 3, 16


def main() -> None:
    raw = open("/tmp/faces.raw", "rb").read()
    faces = [raw[:1024], raw[1024:]]
    w = W * 2 * S + GAP * 3
    h = H * S + GAP * 2
    img = [[(40, 40, 40)] * w for _ in range(h)]
    for fi, f in enumerate(faces):
        ox = GAP + fi * (W * S + GAP)
        for y in range(H):
            for x in range(W):
                on = f[y * 16 + x // 8] & (0x80 >> (x % 8))
                col = (120, 200, 255) if on else (0, 0, 0)
                for dy in range(S):
                    row = img[GAP + y * S + dy]
                    for dx in range(S):
                        row[ox + x * S + dx] = col
    data = b"".join(b"\x00" + bytes(v for px in r for v in px) for r in img)

    def chunk(t: bytes, d: bytes) -> bytes:
        return struct.pack(">I", len(d)) + t + d + struct.pack(">I", zlib.crc32(t + d) & 0xFFFFFFFF)

    png = b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
    png += chunk(b"IDAT", zlib.compress(data, 9)) + chunk(b"IEND", b"")
    open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "faces.png"), "wb").write(png)


if __name__ == "__main__":
    main()
