"""`python -m wedlock` runs the wedlock command."""

from .cli.main import cli

cli()
