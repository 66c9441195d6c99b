"""`python -m wedlock` runs the wedlock command."""

from .cli import run

run()
