"""`wedlock pysolfc seeds` and the seed pools of contrib/pysolfc's patch for PySolFC: only
numbers the shipped tables prove won, in a module PySolFC imports."""

from __future__ import annotations

import re
import runpy
import shlex
from pathlib import Path

import pytest
from click.testing import CliRunner

import wedlock
from wedlock.cli.main import cli
from wedlock.pysolfc.seeds import ALWAYS_SOLVABLE, POOL_SIZE, NotAPool, PoolError, module_text, pool, pool_numbers
from wedlock.results.tables import table
from wedlock.search.exhaustive import Verdict

ROOT = Path(__file__).parent.parent.parent
PATCH = ROOT / "contrib" / "pysolfc" / "always-solvable.patch"
POOLS = "pysollib/games/solvable_seeds/"


def seeds(*args: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of `wedlock pysolfc seeds ARGS`."""
    result = CliRunner().invoke(cli, ["pysolfc", "seeds", *args], prog_name="wedlock")
    return result.exit_code, result.stdout, result.stderr


def imported(text: str, tmp_path: Path) -> dict:
    """The globals of a module with this text, run as Python runs a file."""
    path = tmp_path / "pool_solvable_seeds.py"
    path.write_text(text)
    return runpy.run_path(str(path))


def new_files(patch: str) -> dict[str, str]:
    """The files a patch creates, by path, as the text it gives them."""
    files = {}
    for part in re.split(r"^diff --git ", patch, flags=re.M)[1:]:
        if "\nnew file mode" in part:
            path = part.split(maxsplit=1)[0].removeprefix("a/")
            body = part.split("\n@@", 1)[1].split("\n", 1)[1]
            files[path] = "".join(line[1:] + "\n" for line in body.splitlines() if line.startswith("+"))
    return files


@pytest.mark.parametrize(
    ("game", "rules"), [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]
)
def test_the_module_imports_as_a_tuple_of_numbers_proven_won(game: str, rules: str, tmp_path: Path) -> None:
    status, out, err = seeds(game, "--rules", rules, "--count", "300")
    assert (status, err) == (0, "")
    numbers = imported(out, tmp_path)["SOLVABLE_SEEDS"]
    assert type(numbers) is tuple and all(type(n) is int for n in numbers)
    assert len(numbers) == len(set(numbers)) == 300 and list(numbers) == sorted(numbers)
    assert {wedlock.lookup(game, n, rules) for n in numbers} == {Verdict.WON}
    assert pool_numbers(out) == numbers
    assert max(len(line) for line in out.splitlines()) <= 79  # PySolFC's flake8


def test_the_header_says_the_range_the_version_and_the_command() -> None:
    status, out, _ = seeds("monte-carlo", "--rules", "Weddings", "--count", "50", "--seed", "s1")
    head = out.split("SOLVABLE_SEEDS")[0]
    assert status == 0
    assert out.startswith("#!/usr/bin/env python\n# -*- mode: python; coding: utf-8; -*-\n")
    flat = " ".join(line.removeprefix("#").strip() for line in head.splitlines())
    assert '"Weddings (Always Solvable)" (game id 995): deals of "Weddings" (id 212)' in flat
    assert f"wedlock {wedlock.__version__}" in flat
    assert "50 numbers, drawn at random from the 4087 proven winnable in 1-10000, the range covered" in flat
    assert "50 of them under 32000" in flat
    assert "wedlock pysolfc seeds monte-carlo --rules weddings --count 50 \\ --seed s1" in flat
    numbers = pool_numbers(out)
    assert f"they run from {numbers[0]} to {numbers[-1]}" in flat


def test_the_command_in_the_header_makes_the_same_module() -> None:
    _, out, _ = seeds("matrimony", "--count", "20", "--seed", "again")
    lines = out.split("# Made by:\n", 1)[1].split("\n\n", 1)[0].splitlines()
    command = " ".join(line.removeprefix("#").strip().removesuffix("\\").strip() for line in lines).split()
    assert command[:3] == ["wedlock", "pysolfc", "seeds"]
    assert seeds(*command[3:])[1] == out


def test_the_same_arguments_give_the_same_module_and_another_seed_another(tmp_path: Path) -> None:
    first, second = seeds("monte-carlo", "--count", "100"), seeds("monte-carlo", "--count", "100")
    assert first == second
    other = seeds("monte-carlo", "--count", "100", "--seed", "other")[1]
    assert pool_numbers(other) != pool_numbers(first[1])
    out = tmp_path / "montecarlo_solvable_seeds.py"
    assert seeds("monte-carlo", "--count", "100", "--out", str(out)) == (0, "", "")
    assert out.read_text() == first[1]


def test_the_default_pool_spreads_over_both_of_pysolfcs_generators() -> None:
    numbers = pool("monte-carlo").numbers
    assert len(numbers) == POOL_SIZE == 4000
    assert any(n < 32000 for n in numbers) and any(n >= 32000 for n in numbers)
    assert numbers[-1] > 900_000  # drawn from the whole table, 1-1,000,000


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["monte-carlo", "--rules", "strict"], "Monte Carlo, strict is not a PySolFC game; seed pools are for monte-carlo --rules pysol,"),
        (["monte-carlo", "--rules", "thirteens"], "Monte Carlo Thirteens is not a PySolFC game"),
        (["monte-carlo", "--rules", "5x4"], "is not a PySolFC game"),
        (["matrimony", "--rules", "arnold"], "Matrimony (Peter Arnold's rules) is not a PySolFC game"),
        (["klondike"], "unknown game 'klondike'"),
        (["2decks"], "2decks is a rule set of monte-carlo: wedlock pysolfc seeds monte-carlo --rules 2decks"),
        (["weddings", "--rules", "pysol"], "weddings is PySolFC's Weddings: monte-carlo under its weddings rules, not --rules pysol"),
        (
            ["monte-carlo", "--rules", "weddings", "--count", "4088"],
            "4,087 deals of games 1-10,000 are proven winnable; ask for 4,087 or fewer",
        ),
        (["monte-carlo", "--count", "0"], "'--count': 0 is not in the range"),
        (["monte-carlo", "--count", "many"], "'many' is not a valid integer"),
        (["monte-carlo", "--seed", "two words"], "a pool's seed is up to 40 letters, digits, dots, dashes or underscores"),
        (["monte-carlo", "--seed", "x\nimport os"], "a pool's seed is up to 40"),
        (["monte-carlo", "--out", ""], "a file name cannot be empty"),
        (["monte-carlo", "--out", "/no/such/folder/pool.py"], "there is no folder"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(args: list[str], says: str) -> None:
    status, out, err = seeds(*args)
    assert (status, out) == (2, "")
    assert says in err and err.count("\n") == 1, err


def test_the_library_refuses_bad_values_with_named_errors() -> None:
    for args in ({"count": True}, {"count": 0}, {"count": 2.5}, {"seed": 5}, {"seed": "x" * 41}):
        with pytest.raises(PoolError):
            pool("monte-carlo", **args)  # type: ignore[arg-type]
    with pytest.raises(PoolError):
        pool("monte-carlo", "strict")
    for text in ("SOLVABLE_SEEDS = (1, 2.5)", "SOLVABLE_SEEDS = [1, 2]", "SEEDS = (1,)", "SOLVABLE_SEEDS = (", "SOLVABLE_SEEDS = (True,)"):
        with pytest.raises(NotAPool):
            pool_numbers(text)


def test_a_folder_is_refused_and_a_full_disk_is_exit_5(tmp_path: Path) -> None:
    assert seeds("monte-carlo", "--count", "5", "--out", str(tmp_path))[0] == 2  # refused before any work
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    status, out, err = seeds("monte-carlo", "--count", "5", "--out", "/dev/full")
    assert (status, out) == (5, "") and "cannot write /dev/full" in err


# The patch in contrib/pysolfc, checked without PySolFC: its pools hold only won numbers.


def test_every_number_in_the_patchs_pools_is_won_in_wedlocks_tables() -> None:
    files = new_files(PATCH.read_text())
    for (game, rules), (_, _, module) in ALWAYS_SOLVABLE.items():
        text = files[POOLS + module + ".py"]
        numbers = pool_numbers(text)
        assert len(numbers) == len(set(numbers)) == POOL_SIZE
        assert {wedlock.lookup(game, n, rules) for n in numbers} == {Verdict.WON}, module
        assert max(len(line) for line in text.splitlines()) <= 79


def test_the_patch_registers_each_pools_game_under_its_id_and_name() -> None:
    patch = PATCH.read_text()
    added = "\n".join(line[1:] for line in patch.splitlines() if line.startswith("+"))
    registered = re.findall(r'registerGame\(GameInfo\((\d+), (\w+),\s+"([^"]+)"', added)
    assert sorted((int(i), name) for i, _, name in registered) == sorted((i, name) for i, name, _ in ALWAYS_SOLVABLE.values())
    assert "-        ('dev', tuple(range(991, 994))),\n+        ('dev', tuple(range(991, 998))),\n" in patch
    for _, name, _ in ALWAYS_SOLVABLE.values():
        page = re.sub(r"[^\w]", "", name.lower()) + ".html"  # PySolFC's rules file for a game's name
        assert f"html-src/rules/{page}" in new_files(patch), page


def test_a_pool_module_is_what_module_text_writes() -> None:
    chosen = pool("matrimony", count=10, seed="t")
    assert pool_numbers(module_text(chosen)) == chosen.numbers


def test_the_readmes_pool_table_is_what_the_patch_holds() -> None:
    readme = (ROOT / "contrib" / "pysolfc" / "README.md").read_text()
    files = new_files(PATCH.read_text())
    rows = re.findall(r"^\| ([^|]+) \| ([\d,]+) won of games 1-([\d,]+)[^|]* \| ([\d,]+) \|$", readme, re.M)
    assert len(rows) == len(ALWAYS_SOLVABLE)
    sizes = 0
    for ((game, rules), (_, name, module)), (shown, won, last, size) in zip(ALWAYS_SOLVABLE.items(), rows):
        known = table(game, rules)
        assert known is not None
        assert name.startswith(shown.strip()) and (int(won.replace(",", "")), int(last.replace(",", ""))) == (
            known.counts()["won"],
            known.last,
        )
        text = files[POOLS + module + ".py"]
        assert len(text.encode()) == int(size.replace(",", "")), module
        sizes += len(text.encode())
    assert f"the four pools together are {sizes:,} bytes" in " ".join(readme.split())


def test_the_readmes_seeds_line_runs() -> None:
    """PySolFC lists Weddings as a game: the README names it so, and the line runs as it stands."""
    (line,) = re.findall(r"^wedlock (pysolfc seeds weddings[^#\n]*?)\s*#", (ROOT / "README.md").read_text(), re.M)
    status, out, err = seeds(*shlex.split(line)[2:])
    assert (status, err) == (0, "")
    assert len(pool_numbers(out)) == 1000
