"""The dearest deals' costs shipped beside the tables, and what `solve` says with them when
its search stops unknown: the table's verdict, the command that decides the deal again, and
its price."""

from __future__ import annotations

import json
from itertools import chain
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tests.cli.test_cli import run
from wedlock.results import proof_costs
from wedlock.results.records import iter_results
from wedlock.search.exhaustive import Verdict

DATA = Path(__file__).resolve().parent.parent.parent / "data"
SHIPPED = Path(proof_costs.__file__).parent / "published" / proof_costs.FILE


@pytest.mark.slow  # it reads 1.2 million lines; the quick tier reads the files of the games the costs name, below
def test_the_shipped_costs_are_what_the_results_files_say() -> None:
    records = chain.from_iterable(iter_results(p) for p in sorted(DATA.glob("*.jsonl.gz")))
    assert json.loads(SHIPPED.read_text()) == proof_costs.dear(records)


def test_each_game_the_shipped_costs_name_has_the_costs_its_results_files_say() -> None:
    shipped = json.loads(SHIPPED.read_text())
    assert shipped
    for key, costs in shipped.items():
        files = sorted(DATA.glob(f"{key}-*.jsonl.gz"))
        assert files, key
        assert proof_costs.dear(chain.from_iterable(iter_results(p) for p in files)) == {key: costs}


def test_only_decided_lines_dearer_than_the_defaults_are_kept_and_the_newest_version_counts() -> None:
    def line(number: str, verdict: str, states: int, seconds: float, version: str) -> dict:
        return {"game": "matrimony", "rules": "pysol", "game_number": number, "verdict": verdict, "states": states, "seconds": seconds, "version": version}

    kept = proof_costs.dear(
        [
            line("5", "lost", 30_000_000, 10.0, "0.6.0"),
            line("6", "won", 1_000, 500.0, "0.4.0"),  # an older version's dear line ...
            line("6", "won", 1_000, 5.0, "0.10.0"),  # ... the newer one was cheap
            line("7", "unknown", 90_000_000, 120.0, "0.6.0"),
            line("8", "won", 1_000, 1.0, "0.6.0"),
            {**line("9", "won", 99_000_000, 999.0, "0.6.0"), "analysis": {}},  # a luck run's
        ]
    )
    assert kept == {"matrimony-pysol": [{"game_number": "5", "verdict": "lost", "states": 30_000_000, "seconds": 10.0, "version": "0.6.0"}]}


@given(st.integers(min_value=1, max_value=10**12))
def test_the_state_limit_given_leaves_room_in_two_figures(states: int) -> None:
    cost = proof_costs.ProofCost("matrimony", "pysol", "1", Verdict.LOST, states, 1.0, "0.6.0")
    limit = cost.max_states
    assert limit >= states * 6 // 5 and limit >= proof_costs.DEFAULT_STATES
    assert len(str(limit).rstrip("0")) <= 2
    assert f"--max-states {limit}" in cost.command() and "--time-limit none" in cost.command()


def test_an_unknown_answer_on_a_deal_the_table_holds_lost_says_so_and_keeps_its_own_status() -> None:
    result = run("solve", "matrimony", "319", "--time-limit", "0.3")
    assert result.exit_code == 3, result.output
    lines = result.stdout.splitlines()
    assert lines[1].startswith("# unknown: time limit 0.3s reached")
    assert lines[3] == (
        "# the shipped table holds game 319 as lost: `wedlock solve matrimony 319 --time-limit none --max-states 310000000` "
        "decides it again (it took 258,029,647 states and 30 min, 4.7 GB for the table of states)"
    )
    assert run("solve", "matrimony", "319", "--time-limit", "0.3", "--use-table").exit_code == 1
    data = json.loads(run("solve", "matrimony", "319", "--time-limit", "0.3", "--json").stdout)
    assert data["verdict"] == "unknown"
    assert data["published"] == {
        "verdict": "lost",
        "command": "wedlock solve matrimony 319 --time-limit none --max-states 310000000",
        "states": 258_029_647,
        "seconds": 1784.5251,
    }


def test_a_won_deal_cut_short_says_the_tables_verdict_and_use_table_exits_won() -> None:
    result = run("solve", "matrimony", "1", "--max-states", "10")
    assert result.exit_code == 3 and result.stdout.splitlines()[-1] == "# the shipped table holds game 1 as won", result.output
    assert run("solve", "matrimony", "1", "--max-states", "10", "--use-table").exit_code == 0
    assert json.loads(run("solve", "matrimony", "1", "--max-states", "10", "--json").stdout)["published"] == {"verdict": "won"}


def test_an_unknown_deal_no_table_decides_is_told_the_price_of_the_dearest_proof() -> None:
    result = run("solve", "matrimony", "2224", "--time-limit", "0.3")
    assert result.exit_code == 3
    assert result.stdout.splitlines()[-1] == (
        "# the dearest loss proven for this game, game 319's, took 258,029,647 states and 30 min, 4.7 GB for the table of states"
    )
    assert "published" not in json.loads(run("solve", "matrimony", "2224", "--time-limit", "0.3", "--json").stdout)
    assert run("solve", "matrimony", "2224", "--time-limit", "0.3", "--use-table").exit_code == 3


def test_a_game_under_way_is_not_its_deal_and_a_decided_answer_needs_no_table(tmp_path: Path) -> None:
    moves = tmp_path / "m.txt"
    moves.write_text("")
    under_way = run("solve", "matrimony", "319", "--after", moves, "--time-limit", "0.3")
    assert under_way.exit_code == 3 and "shipped table" not in under_way.stdout
    decided = run("solve", "matrimony", "13")
    assert decided.exit_code == 0 and "shipped table" not in decided.stdout
