"""contrib/pysolfc's patch in PySolFC itself: it applies to master, and in the patched
engine its four Always Solvable games load and deal only pool numbers, each dealt as
"Select game by number" deals it and as wedlock solved it, and won by wedlock.

The engine checks patch a copy of the tree WEDLOCK_PYSOLFC_SRC names (master, or a tree as
new: it has PR #591's solvable_seeds package). The checks against master's history need a
clone of PySolFC's git repository, named by WEDLOCK_PYSOLFC_GIT (a bare one will do)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import engine
import pytest

import wedlock
from wedlock.basics.compiled import compiled_core
from wedlock.basics.numbering import MS_LIMIT, GameNumber
from wedlock.pipeline.line_layouts import frames
from wedlock.pysolfc.ids import GAME_IDS
from wedlock.pysolfc.seeds import ALWAYS_SOLVABLE
from wedlock.search.exhaustive import Verdict

ROOT = Path(__file__).parent.parent.parent
CONTRIB = ROOT / "contrib" / "pysolfc"
PATCH = CONTRIB / "always-solvable.patch"
GIT_VARIABLE = "WEDLOCK_PYSOLFC_GIT"
FRESH = 100  # fresh deals of each game
FORCED = [1, 31999, 32000, 123456, 10**12]  # pool draws forced to these (and to each pool's least and greatest)
SOLVE_SECONDS = 10.0
GAMES = {game_id: names for names, (game_id, _, _) in ALWAYS_SOLVABLE.items()}


def git_repository() -> Path:
    """The PySolFC git repository WEDLOCK_PYSOLFC_GIT names, or a skip saying why."""
    if shutil.which("git") is None:
        pytest.skip("no git here")
    named = os.environ.get(GIT_VARIABLE, "")
    if not named:
        pytest.skip(f"no PySolFC git repository: set {GIT_VARIABLE} to a clone of github.com/shlomif/PySolFC")
    found = subprocess.run(["git", "-C", named, "rev-parse", "--verify", "-q", "master^{commit}"], capture_output=True)
    if found.returncode != 0:
        pytest.skip(f"{GIT_VARIABLE}={named} is not a git repository with a master branch")
    return Path(named)


def export_master(repository: Path, into: Path) -> None:
    """The folders of master the patch touches (a clone without PySolFC's large files
    cannot export the rest)."""
    archive = subprocess.run(
        ["git", "-C", str(repository), "archive", "master", "--", "pysollib", "html-src"], capture_output=True, check=True
    )
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive.stdout, check=True)


def test_the_patch_applies_to_master(tmp_path: Path) -> None:
    export_master(git_repository(), tmp_path)
    check = subprocess.run(["git", "apply", "--check", str(PATCH)], cwd=tmp_path, capture_output=True, text=True)
    assert check.returncode == 0, check.stderr


def test_make_patch_remakes_the_patch_from_the_tables(tmp_path: Path) -> None:
    repository = git_repository()
    for name in ("make-patch.sh", "always-solvable.patch"):
        shutil.copy(CONTRIB / name, tmp_path / name)
    made = subprocess.run(
        ["bash", str(tmp_path / "make-patch.sh"), str(repository)],
        capture_output=True,
        text=True,
        env={**os.environ, "WEDLOCK": f"{sys.executable} -m wedlock"},
    )
    assert made.returncode == 0, made.stderr
    assert (tmp_path / "always-solvable.patch").read_text() == PATCH.read_text()


def test_the_patched_files_pass_flake8_as_pysolfcs_ci_runs_it(tmp_path: Path) -> None:
    repository = git_repository()
    version = subprocess.run([sys.executable, "-m", "flake8", "--version"], capture_output=True, text=True)
    if version.returncode != 0 or "import_order" not in version.stdout.replace("-", "_"):
        pytest.skip("PySolFC's CI runs flake8 with flake8-import-order: pip install flake8 flake8-import-order")
    export_master(repository, tmp_path)
    config = subprocess.run(["git", "-C", str(repository), "show", "master:setup.cfg"], capture_output=True, text=True, check=True)
    (tmp_path / "setup.cfg").write_text(config.stdout)  # its [flake8] section
    subprocess.run(["git", "apply", str(PATCH)], cwd=tmp_path, check=True)
    touched = sorted({line.split(" b/", 1)[1] for line in PATCH.read_text().splitlines() if line.startswith("diff --git ")})
    python = [name for name in touched if name.endswith(".py")]
    assert len(python) == 8
    lint = subprocess.run([sys.executable, "-m", "flake8", "--show-source", *python], cwd=tmp_path, capture_output=True, text=True)
    assert lint.returncode == 0, lint.stdout
    spaces = [name for name in touched if any(line != line.rstrip() for line in (tmp_path / name).read_text().splitlines())]
    assert spaces == []  # PySolFC's tests also refuse trailing spaces in .py and .html files


@pytest.fixture(scope="module")
def probed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """What always_solvable_probe.py prints, run on a patched copy of the tree given."""
    why = engine.why_not()
    if why is not None:
        pytest.skip(why)
    source = engine.source()
    assert source is not None
    if not (source / "pysollib" / "games" / "solvable_seeds").is_dir():
        pytest.skip(f"the patch is for PySolFC master; {source} is older (no solvable_seeds package)")
    tree = tmp_path_factory.mktemp("patched")
    for folder in ("pysollib", "html-src"):
        if (source / folder).is_dir():
            shutil.copytree(source / folder, tree / folder, ignore=shutil.ignore_patterns("__pycache__"))
    applied = subprocess.run(["git", "apply", str(PATCH)], cwd=tree, capture_output=True, text=True)
    assert applied.returncode == 0, applied.stderr
    run = subprocess.run(
        [sys.executable, str(Path(__file__).parent / "always_solvable_probe.py"), str(FRESH), *map(str, FORCED)],
        capture_output=True,
        text=True,
        env={**os.environ, engine.SOURCE_VARIABLE: str(tree)},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    return json.loads(run.stdout)


def wedlock_layout(game: str, rules: str, number: int) -> dict[str, Any]:
    """wedlock's deal of a number, as the probe writes PySolFC's: the top card of each cell,
    or the piles and foundations, and the talon's count."""
    start = frames(wedlock.deal(game, number, rules), []).positions[0]
    if game == "monte-carlo":
        return {"cells": start["cells"], "talon": start["stock"]}
    return {"rows": start["piles"], "foundations": [f["cards"] for f in start["foundations"]], "talon": start["stock"]}


def pysolfc_layout(game: str, dealt: dict[str, Any]) -> dict[str, Any]:
    """The probe's deal in the form of `wedlock_layout`."""
    if game == "monte-carlo":
        return {"cells": [row[-1] if row else None for row in dealt["rows"]], "talon": dealt["talon"]}
    return {"rows": dealt["rows"], "foundations": dealt["foundations"], "talon": dealt["talon"]}


def test_the_four_games_load_in_pysolfcs_engine(probed: dict[str, Any]) -> None:
    loaded = {int(game_id): (got["name"], got["class"], got["base"]) for game_id, got in probed.items()}
    assert loaded == {
        994: ("Monte Carlo (Always Solvable)", "MonteCarloAlwaysSolvable", 89),
        995: ("Weddings (Always Solvable)", "WeddingsAlwaysSolvable", 212),
        996: ("Monte Carlo (2 Decks) (Always Solvable)", "MonteCarlo2DecksAlwaysSolvable", 216),
        997: ("Matrimony (Always Solvable)", "MatrimonyAlwaysSolvable", 424),
    }
    assert [(got["decks"], got["redeals"]) for got in probed.values()] == [(1, 0), (1, 0), (2, 0), (2, 16)]


def test_fresh_deals_are_pool_numbers_dealt_as_wedlock_deals_them(probed: dict[str, Any]) -> None:
    for game_id, got in probed.items():
        game, rules = GAMES[int(game_id)]
        pool = set(got["pool"])
        assert len(got["fresh"]) == FRESH and len({d["number"] for d in got["fresh"]}) > FRESH // 2
        for dealt in got["fresh"]:
            number = dealt["number"]
            assert number in pool, (game_id, number)
            assert dealt["generator"] == ("LCRandom31" if number < MS_LIMIT else "MTRandom"), (game_id, number)
            assert GameNumber.parse(dealt["shown"]) == GameNumber.parse(str(number))  # the title's number deals it again
            assert pysolfc_layout(game, dealt) == wedlock_layout(game, rules, number), (game_id, number)


def test_a_drawn_number_is_dealt_as_select_game_by_number_deals_it(probed: dict[str, Any]) -> None:
    for game_id, got in probed.items():
        game, rules = GAMES[int(game_id)]
        assert got["base"] == GAME_IDS[game, rules]
        numbers = [dealt["number"] for dealt in got["forced"]]
        assert numbers == [*FORCED, min(got["pool"]), max(got["pool"])]
        for dealt in got["forced"]:
            assert dealt["drawn_from_the_pool"] == [True]  # one draw, from the game's own pool
            assert dealt["stacks"] == dealt["selected"]["stacks"] == dealt["reentered"]["stacks"], (game_id, dealt["number"])
            assert pysolfc_layout(game, dealt) == wedlock_layout(game, rules, dealt["number"])
    assert min(probed["994"]["pool"]) < MS_LIMIT <= max(probed["994"]["pool"])  # Monte Carlo's pool: both generators


def test_fresh_deals_are_won_by_wedlock(probed: dict[str, Any]) -> None:
    for game_id, got in probed.items():
        game, rules = GAMES[int(game_id)]
        numbers = sorted({dealt["number"] for dealt in got["fresh"]})
        assert {wedlock.lookup(game, n, rules) for n in numbers} == {Verdict.WON}
        solved = [wedlock.solve(game, n, rules, time_limit=SOLVE_SECONDS).verdict for n in numbers]
        assert Verdict.LOST not in solved
        # Matrimony's hardest deals take minutes: the table holds their proof; most solve again
        # here (in pure Python, whose playouts are some forty times slower, fewer).
        most = 0.9 if compiled_core() is not None else 0.6
        assert solved.count(Verdict.WON) >= most * len(numbers), (game_id, solved.count(Verdict.WON), len(numbers))


def test_the_ids_and_names_are_free_in_the_tree_given(pysolfc: Any) -> None:
    gamedb = pysolfc.load().gamedb
    for game_id, name, _ in ALWAYS_SOLVABLE.values():
        assert gamedb.GAME_DB.get(game_id) is None, game_id
        assert gamedb.GAME_DB.getGameByName(name) is None, name
        assert not gamedb.GI.PROTECTED_GAMES.get(game_id)
