"""A game played by the simulator in virtual time and saved as the hall's pull saves it: the
report's tests (tests/host/hall/test_hall_browser.py, tests/host/cli/test_cli.py) read it."""

from __future__ import annotations

import json
import os


def played_game(folder: str) -> None:
    """A game with moves, a flag and a result, played by the sim in virtual time, saved as a pull
    saves it (records.bin: the log's segments, anchors and all)."""
    from sagat.cli import main
    from sagat.log.flash import read_image

    script = os.path.join(folder, "game.jsonl")
    lines = [{"at": 0, "do": "new", "tc": "30|40", "first": "left"}, {"at": 0, "do": "start"}]
    t, side = 0, "left"
    for used in (3100, 2500, 6400, 1200, 5000, 4300, 7700, 2000, 4900, 3800):
        t += used
        lines.append({"at": t, "do": "press", "side": side})
        side = "right" if side == "left" else "left"
    lines += [{"at": t + 20000, "do": "result", "result": "0-1"}]
    with open(script, "w", encoding="utf-8") as fh:
        fh.write("".join(json.dumps(x) + "\n" for x in lines))
    flash = os.path.join(folder, "flash.img")
    assert main(["sim", "--script", script, "--virtual", "--flash", flash]) == 0
    board = os.path.join(folder, "logs", "board-03-sim")
    os.makedirs(board)
    with open(os.path.join(board, "records.bin"), "wb") as fh:
        for _name, data in read_image(flash):
            fh.write(data)


def keyed_log(folder: str, key: str = "secret") -> str:
    """A keyed clock's log as the hall's pull saves it (records.bin and the clock's signed head):
    tests/kits/make_image.py's two games (game 1 flagged and 1-0, game 2 in progress) under `key`."""
    import subprocess
    import sys

    from sagat import pull
    from sagat.log import decode
    from sagat.log.flash import read_image
    from sagatfw.link import auth as A

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    exe = os.path.join(os.path.dirname(sys.executable), "micropython")
    image = os.path.join(folder, "keyed.img")
    run = subprocess.run([exe, os.path.join(root, "tests", "kits", "make_image.py"), image, key],
                         capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stdout + run.stderr
    board = os.path.join(folder, "keyed", "board-05-e6614103e7")
    os.makedirs(board)
    with open(os.path.join(board, "records.bin"), "wb") as fh:
        for _name, data in read_image(image):
            fh.write(data)
    log = decode.read_segments([("records.bin", open(os.path.join(board, "records.bin"), "rb").read())],
                             key.encode(), replay=False)
    head = {"seq": log.last_seq, "first": log.start_seq, "link": log.last_link.hex(), "nonce": "ab" * 16,
            "uid": "e6614103e7"}
    head["mac"] = A.hex_text(A.hmac_sha256(key.encode(), A.head_message(
        head["nonce"], head["uid"], head["first"], head["seq"], head["link"])))
    assert pull.head_ok(head, key.encode())
    with open(os.path.join(board, "head.json"), "w", encoding="utf-8") as fh:
        json.dump(head, fh)
    return os.path.join(folder, "keyed")
