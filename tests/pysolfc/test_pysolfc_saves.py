"""PySolFC's saved games: the reader (on games PySolFC 3.6.1 saved, in tests/data/pysolfc),
the writer of wins, and the pickles wedlock writes. The checks in PySolFC's own engine
are in tests/pysolfc/."""

from __future__ import annotations

import io
import json
import pickle
import pickletools
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import wedlock
from tests.tiers import examples
from wedlock.basics.errors import PositionError, SavedGameError
from wedlock.basics.numbering import GameNumber
from wedlock.pysolfc import saves
from wedlock.pysolfc.atomic import Layout, MoveCards, UpdateStack, played
from wedlock.pysolfc.history import move_for, step_for
from wedlock.pysolfc.layout import layout_of, same_cards, start_layout, talon_of
from wedlock.pysolfc.pickle_reader import PickleReader
from wedlock.pysolfc.pickles import Instance, dumps
from wedlock.pysolfc.saved_positions import saved_position
from wedlock.pysolfc.writer import save_bytes, save_of

DATA = Path(__file__).parent.parent / "data" / "pysolfc"
MADE = json.loads((DATA / "saves.json").read_text(encoding="utf-8"))
CASES = [("monte-carlo", "pysol"), ("monte-carlo", "weddings"), ("monte-carlo", "2decks"), ("matrimony", "pysol")]


def made(name: str) -> dict[str, Any]:
    """What saves.json says of a shipped file."""
    return next(entry for entry in MADE if entry["file"] == name)


def segments(data: bytes) -> list[bytes]:
    """A save's pickles, each as its bytes."""
    stream, out = io.BytesIO(data), []
    while stream.tell() < len(data):
        start = stream.tell()
        for _ in pickletools.genops(stream):
            pass
        out.append(data[start : stream.tell()])
    return out


def written(game: str, number: int, rules: str) -> bytes:
    """The save wedlock writes of a win (whose pickles share no memo: each can be replaced)."""
    return save_bytes(wedlock.solve(game, number, rules))


def replaced(data: bytes, index: int, value: Any) -> bytes:
    """The save with its pickle at `index` (counting from 0) holding `value` instead."""
    parts = segments(data)
    parts[index] = dumps(value)
    return b"".join(parts)


def history_moves(data: bytes) -> list[str]:
    """Every move of a save's history, the played ones and those for Redo, as wedlock reads
    them: the played ones reach the save's position, and Redo's are read on from there."""
    saved = saves.parse(data)
    here = saved_position(data)
    chosen, seen, layout = here.deal, here.seen, saved.layout
    out = [m.text() for m in here.moves]
    for step in saved.history[saved.index :]:
        move = move_for(chosen.rules, seen, step)
        seen = chosen.game.after(chosen.rules, seen, move)
        layout = played(layout, step, *talon_of(seen))
        out.append(chosen.game.move_text(chosen.rules, move))
    assert same_cards(layout, layout_of(seen))
    return out


# --- reading what PySolFC saved -----------------------------------------------------------


@pytest.mark.parametrize("entry", MADE, ids=[e["file"] for e in MADE])
def test_a_game_pysolfc_saved_is_read_as_the_position_after_its_played_moves(entry: dict) -> None:
    found = wedlock.position(pysolfc_save=DATA / entry["file"])
    expected = wedlock.position(entry["game"], entry["number"], entry["rules"], after=entry["played"])
    assert found.seen == expected.seen
    assert [m.text() for m in found.moves] == entry["played"]  # the undone moves are not played
    assert (found.deal.cards, found.deal.rules) == (expected.deal.cards, expected.deal.rules)
    assert found.label == expected.label
    saved = saves.read(DATA / entry["file"])
    assert (saved.version, saved.index, len(saved.history)) == ((3, 6, 1), len(entry["played"]), len(entry["played"]) + len(entry["undone"]))


def test_the_undone_moves_stay_in_the_history_for_redo() -> None:
    entry = made("matrimony-mid.pso")
    assert history_moves((DATA / entry["file"]).read_bytes()) == entry["played"] + entry["undone"]


def test_the_game_rules_and_number_given_must_be_the_saved_games() -> None:
    path = DATA / "weddings-mid.pso"
    assert wedlock.position("monte-carlo", 39919, "weddings", pysolfc_save=path).seen == wedlock.position(pysolfc_save=path).seen
    assert wedlock.position("Monte Carlo", "#39,919", pysolfc_save=str(path)).deal.rules.name == "weddings"
    for game, source, rules, words in [
        ("matrimony", None, None, "not of matrimony"),
        ("monte-carlo", None, "pysol", "not of its rules 'pysol'"),
        (None, 39920, None, "the saved game is game 39919, not that deal"),
    ]:
        with pytest.raises(SavedGameError, match=words):
            wedlock.position(game, source, rules, pysolfc_save=path)
    with pytest.raises(PositionError, match="given once"):
        wedlock.position(pysolfc_save=path, text="stock (27)")
    with pytest.raises(PositionError, match="or a saved game"):
        wedlock.position("monte-carlo")


def test_moves_after_a_saved_game_are_played_on_from_it() -> None:
    entry = made("monte-carlo-consolidated.pso")
    start = wedlock.position(pysolfc_save=DATA / entry["file"])
    line = wedlock.solve(start.deal.game, start).moves
    later = wedlock.position(pysolfc_save=DATA / entry["file"], after=[line[0].text()])
    assert [m.text() for m in later.moves] == [*entry["played"], line[0].text()]


# --- refusing what is not a save of these games -------------------------------------------


def test_a_save_of_another_version_another_game_or_a_custom_deal_is_refused_in_one_line() -> None:
    data = written("monte-carlo", 12345, "pysol")
    for index, value, words in [
        (2, (3, 1, 0), "its version is written '3.6.1' and 3.1.0, which do not agree"),
        (1, "3.7.0", "its version is written '3.7.0' and 3.6.1, which do not agree"),
        (2, (3, 6, 10**70), "its version is not a version"),
        (1, 3, "its version is written 3 and 3.6.1"),
        (0, "PySol", "not a game PySolFC saved"),
        (5, 2, "a save of PySolFC's game 2; wedlock reads its games Monte Carlo (89)"),
        (4, 2, "saved in its format 2"),
        (3, 2, "a bookmark, not a saved game"),
        (6, saves.MS_LONG_BIT | saves.CUSTOM_BIT, "a custom game"),
        (6, saves.MS_LONG_BIT | 2**40, "Microsoft deal number is out of range"),
        (6, 10**21, "out of PySolFC's range"),
        (6, 5, "out of PySolFC's range"),  # a Mersenne Twister number PySolFC never deals
        (8, 26, "26 stacks, where the game has 27"),
    ]:
        changed = replaced(data, index, value)
        with pytest.raises(SavedGameError, match=words.replace("(", r"\(").replace(")", r"\)")) as err:
            saved_position(changed)
        assert "\n" not in str(err.value)
    newer = replaced(replaced(data, 2, (3, 7, 0)), 1, "3.7.0")
    with pytest.raises(SavedGameError, match="saved by PySolFC 3.7.0; wedlock reads the saves of PySolFC 3.2.0 to 3.6.1"):
        saves.parse(newer)
    older = replaced(replaced(data, 2, (3, 1, 0)), 1, "3.1.0")
    with pytest.raises(SavedGameError, match="saved by PySolFC 3.1.0; wedlock reads"):
        saves.parse(older)


def test_a_save_whose_cards_or_history_were_changed_is_refused() -> None:
    data = written("monte-carlo", 12345, "pysol")
    parts = segments(data)
    first_card, second_card = 10, 13  # stack 0's card id, stack 1's card id (one card each)
    swapped = parts.copy()
    swapped[first_card], swapped[second_card] = parts[second_card], parts[first_card]
    with pytest.raises(SavedGameError, match="its cards are not where its moves put them"):
        saved_position(b"".join(swapped))

    chosen = wedlock.deal("monte-carlo", 12345)
    start = start_layout(chosen)
    pair, consolidate = wedlock.solve("monte-carlo", 12345).moves.raw()[:2]
    first = step_for(chosen.rules, start, pair)
    after_first = played(start, first, 26, 1)

    def save(layout: Layout, history: list, index: int) -> bytes:
        return save_of(89, GameNumber.parse("12345"), layout, history, index)

    assert [m.text() for m in saved_position(save(after_first, [first], 1)).moves] == ["A1 QC + B1 QH"]
    with pytest.raises(SavedGameError, match="its cards are not where its moves put them"):
        saved_position(save(start, [first], 1))  # a move made that the cards do not show
    wrong = (first[0], MoveCards(1, 0, 25), MoveCards(1, 1, 25), first[3])
    with pytest.raises(SavedGameError, match=r"move 1 of the saved game is not legal: A1 QC \+ A2 TS: .* not the same rank"):
        saved_position(save(played(start, wrong, 26, 1), [wrong], 1))
    odd = (MoveCards(1, 0, 25), MoveCards(1, 5, 25))
    with pytest.raises(SavedGameError, match=r"move 1 of the saved game \(A1 QC \+ B1 QH\) is not what PySolFC records"):
        saved_position(save(played(start, odd, 26, 1), [odd], 1))
    with pytest.raises(SavedGameError, match="its history's place is not in the history"):
        saved_position(save(after_first, [first], 2))
    with pytest.raises(SavedGameError, match="not a play, a shift, a deal or a redeal"):
        saved_position(save_of(424, GameNumber.parse("1"), start_layout(wedlock.deal("matrimony", 1)), [(UpdateStack(0, 17),)], 1))
    assert consolidate == wedlock.solve("monte-carlo", 12345).moves.raw()[1]
    parts = segments(save(after_first, [first], 1))
    moves_at = len(parts) - 5  # the moves record: then the positions seen, two statistics records, "EOF"
    for steps, words in [
        ([[Instance("pysollib.game", "GameSaveInfo", {"stack_caps": []})]], "no move of these games"),
        ([[Instance("pysollib.move", "AFlipMove", {"stack_id": "26"})]], "is not made of its numbers"),
        ([[Instance("pysollib.move", "AFlipMove", {"stack_id": 26, "frames": 1})]], "is not made of its numbers"),
        ([(1, 2)], "not a list of steps"),
    ]:
        value = Instance("pysollib.game", "GameMoves", {"current": [], "history": steps, "index": 1, "state": 64})
        with pytest.raises(SavedGameError, match=words):
            saved_position(b"".join([*parts[:moves_at], dumps(value), *parts[moves_at + 1 :]]))


def test_a_damaged_truncated_empty_or_oversized_file_is_refused_in_one_line(tmp_path: Path) -> None:
    data = (DATA / "matrimony-mid.pso").read_bytes()
    for bad, words in [
        (data[:-1], "damaged"),
        (data[: len(data) // 2], "damaged"),
        (data + b"\x80\x04K\x01.", "does not end where a saved game ends"),
        (b"", "an empty file"),
        (b"PySolFC 3.6.1\n", "not a game PySolFC saved"),
        (b"\x80\x04\x8c\x07PySolFC.", "ends before its version"),
    ]:
        with pytest.raises(SavedGameError, match=words):
            saved_position(bad)
    big = tmp_path / "big.pso"
    big.write_bytes(data + b"\x00" * (4 * 1024 * 1024))
    with pytest.raises(SavedGameError, match="more than the 4,194,304 an input may hold"):
        wedlock.position(pysolfc_save=big)
    with pytest.raises(SavedGameError, match="a device, not a file"):
        wedlock.position(pysolfc_save="/dev/zero")
    with pytest.raises(SavedGameError, match="No such file"):
        wedlock.position(pysolfc_save=tmp_path / "none.pso")
    with pytest.raises(SavedGameError, match="named by its path"):
        wedlock.position(pysolfc_save=12)


MUTATIONS = st.one_of(
    st.tuples(st.just("cut"), st.integers(0, 20_000)),
    st.tuples(st.just("byte"), st.integers(0, 20_000), st.integers(0, 255)),
    st.tuples(st.just("insert"), st.integers(0, 20_000), st.binary(min_size=1, max_size=8)),
    st.tuples(st.just("drop"), st.integers(0, 20_000), st.integers(1, 64)),
)


def mutated(data: bytes, mutations: list[tuple]) -> bytes:
    for kind, at, *rest in mutations:
        at %= len(data) + 1
        if kind == "cut":
            data = data[:at]
        elif kind == "byte":
            data = data[:at] + bytes([rest[0]]) + data[at + 1 :]
        elif kind == "insert":
            data = data[:at] + rest[0] + data[at:]
        else:
            data = data[:at] + data[at + rest[0] :]
        if not data:
            break
    return data


@settings(max_examples=examples(300), deadline=None, suppress_health_check=list(HealthCheck))
@given(st.sampled_from(sorted(e["file"] for e in MADE)), st.lists(MUTATIONS, min_size=1, max_size=3))
def test_a_changed_save_gives_a_position_or_one_saved_game_error(name: str, mutations: list[tuple]) -> None:
    data = mutated((DATA / name).read_bytes(), mutations)
    try:
        found = saved_position(data)
    except SavedGameError as err:
        assert str(err).strip() and "\n" not in str(err)
        return
    assert isinstance(found, wedlock.Position)  # a change that leaves a save of some game (a time, a frame)


# --- crafted files: nothing they name runs ------------------------------------------------


def crafted(marker: Path) -> list[tuple[str, bytes]]:
    """Pickles that would create `marker` if they ran, each way a pickle can call something."""
    command = f"touch {marker}".encode()
    code = f"open({str(marker)!r}, 'w')".encode()
    short = lambda text: b"\x8c" + bytes([len(text)]) + text  # noqa: E731 (SHORT_BINUNICODE)
    return [
        ("GLOBAL and REDUCE", b"cos\nsystem\n(S'" + command + b"'\ntR."),
        ("STACK_GLOBAL and REDUCE", b"\x80\x04" + short(b"os") + short(b"system") + b"\x93" + short(command) + b"\x85R."),
        ("builtins.eval", b"\x80\x04" + short(b"builtins") + short(b"eval") + b"\x93" + short(code) + b"\x85R."),
        ("subprocess by NEWOBJ", b"\x80\x04" + short(b"subprocess") + short(b"Popen") + b"\x93" + short(b"touch") + short(str(marker).encode()) + b"\x86\x85\x81."),
        ("INST", b"(S'" + command + b"'\nios\nsystem\n."),
        ("OBJ", b"(cos\nsystem\nS'" + command + b"'\no."),
        ("getattr past the generator", b"\x80\x04" + short(b"builtins") + short(b"getattr") + b"\x93" + short(b"pysol_cards.random") + short(b"MTRandom") + b"\x93)R" + short(b"__init__") + b"\x86R."),
        ("BUILD with __setstate__", b"\x80\x04" + short(b"pysollib.game") + short(b"GameMoves") + b"\x93)\x81}" + short(b"__setstate__") + short(b"builtins") + short(b"eval") + b"\x93sb."),
        ("BUILD of a state that is not named", b"\x80\x04" + short(b"pysollib.move") + short(b"AFlipMove") + b"\x93)\x81" + short(b"builtins") + short(b"eval") + b"\x93b."),
        ("a huge memo place", b"\x80\x04K\x01r\xff\xff\xff\x7f."),
        ("a persistent id", b"\x80\x04" + short(b"x") + b"Q."),
        ("an extension code", b"\x80\x04\x82\x01."),
    ]  # fmt: skip


@pytest.mark.parametrize("index", range(12))
def test_a_crafted_file_that_would_run_code_is_refused_without_running_it(tmp_path: Path, index: int) -> None:
    marker = tmp_path / "ran"
    name, pickled = crafted(marker)[index]
    start = b"".join(segments(written("monte-carlo", 12345, "pysol"))[:7])  # a save up to the generator's state
    for data in (pickled, start + pickled):  # first in the file, or where a save holds its one call
        with pytest.raises(SavedGameError):
            saved_position(data)
        with pytest.raises(SavedGameError):
            wedlock.position(pysolfc_save=data)
    assert not marker.exists(), name


@pytest.mark.parametrize("index", range(9))
def test_the_reader_alone_refuses_every_name_it_does_not_know(tmp_path: Path, index: int) -> None:
    """Past the save's own checks too, the reader answers only for the classes of a save."""
    marker = tmp_path / "ran"
    name, pickled = crafted(marker)[index]
    with pytest.raises(SavedGameError, match="it names|it looks up|opcode|protocol"):
        PickleReader(pickled, saves.ALLOWED).load()
    assert not marker.exists(), name


def test_what_the_reader_makes_of_pysolfcs_classes_is_data_and_nothing_else() -> None:
    record = PickleReader(dumps(Instance("pysollib.move", "AMoveMove", {"ncards": 1})), saves.ALLOWED).load()
    assert isinstance(record, saves._Object) and record.attributes == {"ncards": 1} and record.kind == "AMoveMove"
    assert {name for name in vars(saves._Object) if not name.startswith("__")} == {"attributes", "kind", "set_state"}
    assert all(type(found).__module__ == saves.__name__ for found in saves.ALLOWED.values())  # nothing of PySolFC or Python


# --- the pickles wedlock writes ------------------------------------------------------------

values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**80), 2**2100) | st.floats(allow_nan=False) | st.text(max_size=300),
    lambda inner: st.lists(inner, max_size=5) | st.tuples(inner, inner) | st.lists(inner, max_size=6).map(tuple) | st.dictionaries(st.text(max_size=5), inner, max_size=4),
    max_leaves=20,
)


@given(values)
def test_a_value_wedlock_pickles_reads_back_as_itself(value: Any) -> None:
    assert pickle.loads(dumps(value)) == value


def test_an_instance_is_pickled_as_its_class_given_its_attributes() -> None:
    class Moves:
        pass

    class Named(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            assert (module, name) == ("pysollib.game", "GameMoves")
            return Moves

    got = Named(io.BytesIO(dumps(Instance("pysollib.game", "GameMoves", {"index": 3, "history": [[1]]})))).load()
    assert type(got) is Moves and vars(got) == {"index": 3, "history": [[1]]}


# --- writing a win --------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_a_written_win_reads_back_as_the_deal_with_the_win_for_redo(game: str, rules: str) -> None:
    for number in (5, 123456):
        solution = wedlock.solve(game, number, rules)
        if solution.verdict != "won":
            continue
        data = save_bytes(solution)
        saved = saves.parse(data)
        assert (saved.index, len(saved.history), saved.names, str(saved.number)) == (0, len(solution.moves), (game, rules), str(number))
        assert saved.layout == start_layout(solution.deal)
        assert saved_position(data).seen == wedlock.position(game, number, rules).seen
        assert history_moves(data) == [m.text() for m in solution.moves]


def test_a_microsoft_deal_past_32000_is_saved_as_pysolfc_saves_it() -> None:
    data = save_bytes(wedlock.solve("monte-carlo", "ms40000"))
    assert pickle.loads(segments(data)[6]) == saves.MS_LONG_BIT + 40000
    assert str(saves.parse(data).number) == "ms40000"
    assert pickle.loads(segments(save_bytes(wedlock.solve("monte-carlo", 40000)))[6]) == 40000


@pytest.mark.parametrize(("game", "rules"), CASES)
def test_a_written_save_holds_what_pysolfc_writes_for_a_game_just_dealt(game: str, rules: str) -> None:
    """Compared with the start of the same deal saved by PySolFC 3.6.1: every pickle the
    same value, but for the history (the win), the times, and the positions seen."""
    entry = next(e for e in MADE if (e["game"], e["rules"]) == (game, rules) and e["file"].endswith("-start.pso"))
    theirs = _plain_pickles((DATA / entry["file"]).read_bytes())
    ours = _plain_pickles(save_bytes(wedlock.solve(game, entry["number"], rules)))
    assert len(ours) == len(theirs)
    differ = [i for i, (a, b) in enumerate(zip(ours, theirs)) if a != b]
    assert differ == [len(ours) - 5, len(ours) - 4, len(ours) - 3, len(ours) - 2]  # moves, positions seen, statistics
    moves, seen, global_stats, stats = (ours[i] for i in differ)
    theirs_moves, _, theirs_global, theirs_stats = (theirs[i] for i in differ)
    assert {**moves[1], "history": []} == theirs_moves[1] and moves[1]["history"]
    assert seen == []
    times = ("start_time", "total_elapsed_time", "update_time", "elapsed_time")
    for mine, pysolfcs in ((global_stats, theirs_global), (stats, theirs_stats)):
        assert mine[0] == pysolfcs[0] and list(mine[1]) == list(pysolfcs[1])  # the class, its attributes in order
        assert {k: v for k, v in mine[1].items() if k not in times} == {k: v for k, v in pysolfcs[1].items() if k not in times}


def _plain_pickles(data: bytes) -> list[Any]:
    """Every pickle of a save as plain values: an object as (its class's name, its
    attributes); the generator as its state."""

    class Plain:
        def __init__(self, *args: Any) -> None:
            self.args = args

        def __setstate__(self, state: Any) -> None:
            self.state = state

    def plain(value: Any) -> Any:
        if isinstance(value, Plain):
            return (type(value).__name__, plain(getattr(value, "state", None)))
        if isinstance(value, (list, tuple)):
            return type(value)(plain(v) for v in value)
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        return value

    class Reader(pickle.Unpickler):
        def find_class(self, module: str, name: str) -> Any:
            if (module, name) == ("builtins", "getattr"):
                return lambda owner, attribute: ("method", attribute)
            return type(name, (Plain,), {})

    stream, out = io.BytesIO(data), []
    reader = Reader(stream)
    while stream.tell() < len(data):
        out.append(plain(reader.load()))
    return out


def test_a_win_from_a_game_under_way_is_written_from_its_position_and_read_back_there() -> None:
    after = wedlock.position("matrimony", 1, after=made("matrimony-redealt.pso")["played"])
    saved = wedlock.position(pysolfc_save=DATA / "monte-carlo-2decks-mid.pso")
    typed = wedlock.position("monte-carlo", 12345, text=wedlock.position("monte-carlo", 12345, after=["A1 QC + B1 QH", "consolidate"]).text())
    for start in (after, saved, typed):
        chosen = start.deal
        solution = wedlock.solve(chosen.game, start)
        data = save_bytes(solution)
        read = saves.parse(data)
        assert (read.index, len(read.history)) == (0, len(solution.moves))
        assert same_cards(read.layout, layout_of(start.seen))
        back = saved_position(data)
        assert back.typed and back.moves == () and chosen.game.same_position(chosen.rules, chosen.cards, back.seen, start.seen)
        assert history_moves(data) == [m.text() for m in solution.moves]


def test_only_a_win_of_a_numbered_deal_of_pysolfcs_games_is_written(tmp_path: Path) -> None:
    lost = wedlock.solve("monte-carlo", 10)
    assert lost.verdict == "lost"
    with pytest.raises(SavedGameError, match="game 10 is lost, not won"):
        lost.to_pysolfc(tmp_path / "lost.pso")
    with pytest.raises(SavedGameError, match="PySolFC has no game with the rules of Monte Carlo, strict"):
        wedlock.solve("monte-carlo", 3, "strict").to_pysolfc(tmp_path / "strict.pso")
    cards = [str(c) for c in wedlock.deal("monte-carlo", 12345).cards]
    with pytest.raises(SavedGameError, match="given card by card"):
        wedlock.solve("monte-carlo", cards).to_pysolfc(tmp_path / "cards.pso")
    with pytest.raises(SavedGameError, match="cannot write"):
        wedlock.solve("monte-carlo", 12345).to_pysolfc(tmp_path / "no" / "such.pso")
    assert sorted(p.name for p in tmp_path.iterdir()) == []
    wedlock.solve("monte-carlo", 12345).to_pysolfc(tmp_path / "won.pso")
    assert saves.read(tmp_path / "won.pso").index == 0
