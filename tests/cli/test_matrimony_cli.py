"""CliRunner tests of `wedlock deal/solve/verify matrimony`: exit codes and output shapes.

The deal of game 1 below is PySolFC's own (golden vector, PySolFC 3.6.1): J♦ and Q♦ first,
then piles 1-16, then the stock. Verdicts pinned here are regression values; every "won"
is replayed through `verify`.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from pathlib import Path

import pytest

from tests.cli.test_cli import assert_bad_input, run
from wedlock.games.matrimony import quick_stages
from wedlock.games.matrimony.pysol_space import PysolGreedySpace, PysolHoldSpace
from wedlock.games.matrimony.quick_stages import QUICK_STAGES, Stage
from wedlock.games.protocol import EXACT_LABEL

GAME_1 = (
    "JD QD 3D 5H JC KH 5S 5H KC KC 8D AS 8C 6C 6H TC 8D 4C JS QC 4H KD 2H TD 8S AC 7C 2H AD 9H "
    "8S 7D 9S 8H JH 4D 2D 6H TH 8C 2S 3S 9C 7D 4S 8H TH AH JC 4H 7H QS QC 7C 3S QH 9S 2S QH 3C "
    "AS 4S KS 6D TD 9C 9D JS 4D 5C 6C AD JH 6S 3C JD TC AH QS 2C 9H 3H 7S 5C 9D KS 5D TS 7S 6D "
    "TS KD QD 7H 3D 2C KH 5D 3H 2D 4C 5S 6S AC"
).split()
WON_ARNOLD = "2"  # won under Arnold's rules
LOST_ARNOLD = "1"  # lost under Arnold's rules
WON_PYSOL = "1"  # won under PySolFC's rules

CARD = r"[A2-9TJQK][CSHD]"
LABEL = r"\((?:10|J|Q)[♣♠♥♦] (?:up|down)\)"
MOVE_TEXT = re.compile(
    rf"^(?:pile (?:[1-9]|1[0-6]): {CARD} to F[1-8] {LABEL}|shift {CARD} from F[1-8] {LABEL} to F[1-8] {LABEL}"
    rf"|deal|redeal pile (?:[1-9]|1[0-6]))$"
)
NUMBERED = re.compile(r"^(\d+)\. (.*)$")


def numbered_moves(text: str) -> list[str]:
    moves = []
    for line in text.splitlines():
        match = NUMBERED.match(line)
        if match:
            assert int(match.group(1)) == len(moves) + 1, line
            moves.append(match.group(2))
    return moves


def write(tmp_path: Path, name: str, text: str) -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def piles_of(board: str) -> list[list[str]]:
    return [line.split(": ", 1)[1].split() for line in board.splitlines() if re.match(r"^  [ 1]\d: ", line)]


# --- deal ---------------------------------------------------------------------------------


def test_deal_json_is_pysolfc_order_after_the_hook() -> None:
    result = run("deal", "matrimony", "1", "--rules", "arnold", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert data == {"game": "matrimony", "rules": "arnold", "title": "Matrimony (Peter Arnold's rules)", "game_number": "1", "cards": GAME_1}
    assert Counter(data["cards"]) == Counter({c: 2 for c in set(GAME_1)}) and len(set(GAME_1)) == 52


@pytest.mark.parametrize("rules, labels", [("arnold", ["Q♦ up", "J♦ down", "J♥ down", "10♠ down", "10♣ down"]), ("pysol", ["J♣ down", "Q♦ up"])])
def test_deal_text_shows_foundations_piles_and_stock(rules: str, labels: list[str]) -> None:
    result = run("deal", "matrimony", "1", "--rules", rules)
    assert result.exit_code == 0 and result.stderr == ""
    text = result.stdout
    assert text.splitlines()[0] == f"# Matrimony ({'Peter Arnold' + chr(39) + 's rules' if rules == 'arnold' else 'PySolFC'}), game 1"
    for label in labels:
        assert label in text
    assert piles_of(text) == [[c] for c in GAME_1[2:18]]
    assert f"  stock (86): {' '.join(GAME_1[18:])}" in text
    assert "F1 Q♦ up: QD" in text if rules == "arnold" else "F8 Q♦ up: QD" in text


def test_deal_file_round_trips_and_the_hook_applies(tmp_path: Path) -> None:
    as_printed = write(tmp_path, "deal.txt", " ".join(GAME_1))
    assert json.loads(run("deal", "matrimony", "--deal-file", as_printed, "--json").stdout)["cards"] == GAME_1
    # The same cards with J♦ and Q♦ left in the middle: the first of each moves to the top.
    moved = GAME_1[2:20] + ["QD", "JD"] + GAME_1[20:]
    data = json.loads(run("deal", "matrimony", "--deal-file", write(tmp_path, "m.txt", " ".join(moved)), "--json").stdout)
    assert data["cards"] == GAME_1 and data["game_number"] is None


@pytest.mark.parametrize(
    "cards, says",
    [(GAME_1[:-1], ["104 cards", "103"]), (GAME_1[:-1] + ["JD"], ["JD appears 3 times"]), (GAME_1[:52], ["104 cards"])],
)
def test_bad_deal_file(cards: list[str], says: list[str], tmp_path: Path) -> None:
    deal_file = write(tmp_path, "deal.txt", " ".join(cards))
    for command in ("deal", "solve"):
        assert_bad_input(run(command, "matrimony", "--deal-file", deal_file), *says)


def test_unknown_rules_lists_both() -> None:
    assert_bad_input(run("solve", "matrimony", "1", "--rules", "strict"), "strict is a rule set of monte-carlo", "arnold", "pysol")
    assert_bad_input(run("solve", "matrimony", "1", "--rules", "bogus"), "'bogus'", "arnold", "pysol")


# --- solve --------------------------------------------------------------------------------


def test_solve_won_text_and_json_agree() -> None:
    result = run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold")
    assert result.exit_code == 0 and result.stderr == ""
    lines = result.stdout.splitlines()
    assert lines[0] == f"# Matrimony (Peter Arnold's rules), game {WON_ARNOLD}"
    summary = re.fullmatch(r"# won in (\d+) moves \([\d,]+ states, \d+\.\d\d s\)", lines[1])
    assert summary, lines[1]
    moves = numbered_moves(result.stdout)
    assert len(lines) == 2 + len(moves) == 2 + int(summary.group(1))
    assert all(MOVE_TEXT.match(m) for m in moves), [m for m in moves if not MOVE_TEXT.match(m)]
    assert sum(m.startswith("pile ") for m in moves) == 102  # every card but J♦ and Q♦
    assert moves.count("deal") == 6
    data = json.loads(run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold", "--json").stdout)
    assert data["verdict"] == "won" and len(data["moves"]) == len(moves)
    assert "found_by" not in data  # one search under Arnold's rules
    for move in data["moves"]:
        assert move["move"] in ("play", "deal", "redeal")
        if move["move"] == "play":
            assert set(move) == {"move", "pile", "card", "to"} and 1 <= move["pile"] <= 16 and 1 <= move["to"] <= 8


def test_solve_lost_and_limits() -> None:
    result = run("solve", "matrimony", LOST_ARNOLD, "--rules", "arnold")
    assert result.exit_code == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 2 and lines[1].startswith("# lost: no line wins; every reachable position was searched")
    for option in ("--node-limit", "--max-states"):
        limited = run("solve", "matrimony", LOST_ARNOLD, "--rules", "arnold", option, "1", "--json")
        assert limited.exit_code == 3
        assert json.loads(limited.stdout)["verdict"] == "unknown"


def test_pysol_win_uses_its_own_foundations_and_replays(tmp_path: Path) -> None:
    result = run("solve", "matrimony", WON_PYSOL, "--rules", "pysol", "--json")
    assert result.exit_code == 0
    data = json.loads(result.stdout)
    assert (data["rules"], data["verdict"]) == ("pysol", "won")
    kinds = {m["move"] for m in data["moves"]}
    assert kinds <= {"play", "shift", "deal", "redeal"} and "play" in kinds
    for move in data["moves"]:
        if move["move"] == "shift":
            assert set(move) == {"move", "from", "to", "card"}
            assert (move["from"] - 1) % 4 == (move["to"] - 1) % 4  # the same suit
    moves = write(tmp_path, "win.json", result.stdout)
    assert run("verify", "matrimony", WON_PYSOL, "--rules", "pysol", "--moves", moves).exit_code == 0
    # PySolFC's line is no win under Arnold's rules: the first foundation is another one.
    under_arnold = run("verify", "matrimony", WON_PYSOL, "--rules", "arnold", "--moves", moves)
    assert under_arnold.exit_code in (1, 2) and "legal win" not in under_arnold.stdout


def test_pysol_win_found_by_a_beam_replays(tmp_path: Path) -> None:
    # Game 6: the greedy lines hold no win; a beam finds one.
    result = run("solve", "matrimony", "6", "--rules", "pysol", "--json")
    data = json.loads(result.stdout)
    assert result.exit_code == 0 and data["verdict"] == "won"
    assert data["found_by"] in [stage.label for stage in QUICK_STAGES if stage.kind == "beam"]
    assert f"; found by the {data['found_by']})" in run("solve", "matrimony", "6", "--rules", "pysol").stdout.splitlines()[1]
    moves = write(tmp_path, "win.json", result.stdout)
    assert run("verify", "matrimony", "6", "--rules", "pysol", "--moves", moves).exit_code == 0


def test_pysol_node_limit_covers_every_stage() -> None:
    result = run("solve", "matrimony", "8", "--rules", "pysol", "--node-limit", "500")
    assert result.exit_code == 3
    assert "# unknown: node limit 500 reached" in result.stdout
    states = int(re.search(r"\(([\d,]+) states", result.stdout).group(1).replace(",", ""))
    assert states <= 500 + len(QUICK_STAGES)  # each search after the first may look at one state


def test_pysol_time_limit_gives_unknown() -> None:
    # Game 107: the solver takes more than a minute over it.
    result = run("solve", "matrimony", "107", "--rules", "pysol", "--time-limit", "0.2", "--json")
    assert result.exit_code == 3
    data = json.loads(result.stdout)
    assert (data["verdict"], data["reason"]) == ("unknown", "time limit 0.2s reached")  # the caller's limit


def test_solve_progress_counts_the_quick_stages_then_the_exact_search(monkeypatch: pytest.MonkeyPatch) -> None:
    result = run("solve", "matrimony", "8", "--rules", "pysol", "--node-limit", "50", "--progress")
    assert result.exit_code == 3
    total = len(QUICK_STAGES) + 1
    assert f"matrimony game 8, search 1 of {total}: {QUICK_STAGES[0].label}" in result.stderr
    assert EXACT_LABEL not in result.stderr  # the node limit the stages share ran out in the first
    assert result.stdout.splitlines()[1].startswith("# unknown: node limit 50 reached")
    stages = (Stage("dfs", PysolGreedySpace, 10), Stage("beam", PysolHoldSpace, 8))  # each ends on its own
    monkeypatch.setattr(quick_stages, "QUICK_STAGES", stages)
    result = run("solve", "matrimony", "94", "--rules", "pysol", "--node-limit", "20000", "--progress")
    assert result.exit_code == 3
    for n, label in enumerate([stage.label for stage in stages] + [EXACT_LABEL], 1):
        assert f"matrimony game 94, search {n} of 3: {label}" in result.stderr
    assert result.stdout.splitlines()[1].startswith("# unknown: node limit 20,000 reached")


def test_batch_records_name_the_search_that_won_and_why_a_deal_is_unknown(tmp_path: Path) -> None:
    out = tmp_path / "r.jsonl"
    result = run("batch", "matrimony", "5-7", "--rules", "pysol", "--out", str(out), "--jobs", "1", "--quiet")
    assert result.exit_code == 0, result.output
    records = [json.loads(line) for line in out.read_text().splitlines()]
    assert [r["verdict"] for r in records] == ["won"] * 3
    labels = {stage.label for stage in QUICK_STAGES} | {EXACT_LABEL}
    assert all(r["found_by"] in labels and "reason" not in r for r in records)
    arnold = tmp_path / "a.jsonl"
    assert run("batch", "matrimony", "1", "--rules", "arnold", "--out", str(arnold), "--quiet", "--node-limit", "1").exit_code == 0
    (record,) = [json.loads(line) for line in arnold.read_text().splitlines()]
    assert (record["verdict"], record["reason"]) == ("unknown", "node limit 1 reached") and "found_by" not in record


def test_board_after_every_move() -> None:
    result = run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold", "--board")
    assert result.exit_code == 0
    moves = numbered_moves(result.stdout)
    boards = re.split(r"^\d+\. .*\n", result.stdout, flags=re.M)[1:]
    assert len(boards) == len(moves)
    assert result.stdout.count("piles, bottom card first") == len(moves) + 1
    first = piles_of(boards[0])
    pile, card = re.match(rf"pile (\d+): ({CARD})", moves[0]).groups()
    assert card not in first[int(pile) - 1][-1:]  # the played card left its pile
    assert all(p == ["--"] for p in piles_of(boards[-1]))
    assert re.search(r"stock: empty; (all 16 redeals made|next redeal: pile \d+ \(\d+ of 16 made\))$", boards[-1].rstrip())


# --- verify -------------------------------------------------------------------------------


@pytest.mark.parametrize("form", [[], ["--json"], ["--board"]])
def test_solve_output_replays(form: list[str], tmp_path: Path) -> None:
    solved = run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold", *form)
    moves = write(tmp_path, "win.txt", solved.stdout)
    result = run("verify", "matrimony", WON_ARNOLD, "--rules", "arnold", "--moves", moves)
    assert result.exit_code == 0, result.stdout + result.stderr
    assert re.fullmatch(r"legal win of Matrimony \(Peter Arnold's rules\), game 2: \d+ moves\n", result.stdout)


def test_tampered_lines_are_refused(tmp_path: Path) -> None:
    moves = numbered_moves(run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold").stdout)
    assert moves[0] != "deal"
    early = ["deal"] + moves  # a deal while a card can still be played
    result = run("verify", "matrimony", WON_ARNOLD, "--rules", "arnold", "--moves", write(tmp_path, "a.txt", "\n".join(early)))
    assert result.exit_code == 1
    assert result.stdout.startswith("not a win of Matrimony (Peter Arnold's rules), game 2: move 1 (deal): a card can still be played")
    short = run("verify", "matrimony", WON_ARNOLD, "--rules", "arnold", "--moves", write(tmp_path, "b.txt", "\n".join(moves[:-1])))
    assert (short.exit_code, short.stdout) == (1, f"not a win of Matrimony (Peter Arnold's rules), game 2: all {len(moves) - 1} moves are legal but 1 card is not on the foundations\n")
    wrong_label = moves[0].rsplit("(", 1)[0] + "(Q♦ up)"
    if not moves[0].endswith("(Q♦ up)"):
        bad = run("verify", "matrimony", WON_ARNOLD, "--rules", "arnold", "--moves", write(tmp_path, "c.txt", wrong_label))
        assert_bad_input(bad, "line 1", "not Q♦ up")


def test_moves_of_another_game_are_refused(tmp_path: Path) -> None:
    solved = run("solve", "matrimony", WON_ARNOLD, "--rules", "arnold", "--json").stdout
    result = run("verify", "monte-carlo", WON_ARNOLD, "--moves", write(tmp_path, "m.json", solved))
    assert_bad_input(result)


def test_a_win_by_playouts_counts_the_states_held_and_the_playouts_apart() -> None:
    by_playouts = json.loads(run("solve", "matrimony", "1", "--json").stdout)
    assert any(word in by_playouts["found_by"] for word in ("NRPA", "NMCS", "UCT")), by_playouts["found_by"]
    assert by_playouts["playouts"] > 0 and by_playouts["states"] > 0
    text = run("solve", "matrimony", "1").stdout.splitlines()[1]
    assert f"{by_playouts['states']:,} states held, {by_playouts['playouts']:,} playouts, " in text
    by_beam = json.loads(run("solve", "matrimony", "13", "--json").stdout)
    assert "playouts" not in by_beam and "beam" in by_beam["found_by"]
    assert "held" not in run("solve", "matrimony", "13").stdout.splitlines()[1]
