"""`wedlock pysolfc seeds`: a pool of game numbers proven winnable, as the Python module
PySolFC's "Always Solvable" games draw their deals from."""

from __future__ import annotations

from pathlib import Path

import click

from wedlock.pysolfc.seeds import DEFAULT_SEED, POOL_SIZE, module_text, pool

from .common import COUNT, Command, FilePath, check_writable, game_argument, input_errors, rules_option, write_file


@click.command("seeds", cls=Command)
@game_argument
@rules_option
@click.option("--count", type=COUNT, default=POOL_SIZE, show_default=True, help="How many game numbers the pool holds.")
@click.option("--seed", default=DEFAULT_SEED, show_default=True, help="Another seed draws another pool (letters, digits, . - _).")
@click.option("--out", "out_file", type=FilePath(), help="Write the module to this file (default: stdout).")
@input_errors
def seeds_command(game_name: str, rules_name: str | None, count: int, seed: str, out_file: str | None) -> None:
    """Print a seed pool: COUNT game numbers the shipped tables prove winnable, drawn at
    random (the same arguments give the same pool), as a Python module laid out as
    PySolFC's pysollib/games/solvable_seeds/klondike_solvable_seeds.py.

    Only PySolFC's games have pools: monte-carlo (--rules pysol, weddings or 2decks) and
    matrimony (pysol). Each number is dealt by PySolFC's "Select game by number" exactly as
    wedlock solved it, under 32000 as over.

    Example: wedlock pysolfc seeds weddings --count 1000 --out weddings_solvable_seeds.py
    """
    if out_file is not None:
        check_writable(out_file)
    text = module_text(pool(game_name, rules_name, count=count, seed=seed))
    if out_file is None:
        click.echo(text, nl=False)
    else:
        write_file(out_file, lambda target: Path(target).write_text(text, encoding="utf-8"))
