"""`python -m compute`: the command line (compute/cli.py)."""
import sys

from .cli import main

sys.exit(main())
