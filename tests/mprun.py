# Runs one test module under the MicroPython unix port (launched by tests/test_micropython.py).
#   micropython tests/mprun.py FIRMWARE_DIR TEST_DIR MODULE
# Calls every test_* function of MODULE, prints "PASS name" or "FAIL name" with the traceback,
# then "SUMMARY passed failed". Exits 1 if anything failed. The kits (tests/kits) are on the path.
import sys

firmware, test_dir, module = sys.argv[1], sys.argv[2], sys.argv[3]
here = sys.argv[0].rsplit("/", 1)[0] if "/" in sys.argv[0] else "."
sys.path.insert(0, here + "/kits")
sys.path.insert(0, test_dir)
sys.path.insert(0, firmware)
mod = __import__(module)
passed = 0
failed = 0
for name in sorted(dir(mod)):
    if not name.startswith("test_"):
        continue
    fn = getattr(mod, name)
    if not callable(fn):
        continue
    try:
        fn()
    except Exception as e:  # noqa: BLE001 - report every failure, keep going
        failed += 1
        print("FAIL", name)
        sys.print_exception(e)
    else:
        passed += 1
        print("PASS", name)
print("SUMMARY", passed, failed)
sys.exit(1 if failed else 0)
