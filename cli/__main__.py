"""`python -m cli` runs the wedlock command."""

from .main import cli

cli()
