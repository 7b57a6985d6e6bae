import sys

from .entry import run

sys.exit(run())
