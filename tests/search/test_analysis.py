"""The state-graph analysis: hand-counted positions, brute force on small ones, the solver.

The brute force below walks every primitive move sequence (memoised on the canonical key),
straight from the game's `Table`, with no phases; the analysis must give the same counts and
the same exact probabilities.
"""

from __future__ import annotations

import random
from fractions import Fraction

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.games.positions import late_position
from tests.games.test_matrimony_spaces import WON_ARNOLD, WON_PYSOL, deal_of, on_and_off_line, random_line
from wedlock.basics.cards import Card, full_deck
from wedlock.games.matrimony.moves import Play as MatrimonyPlay
from wedlock.games.matrimony.play import Table as MatrimonyTable
from wedlock.games.matrimony.player import PlayerView as MatrimonyView
from wedlock.games.matrimony.rules import RULE_SETS as MATRIMONY_RULES
from wedlock.games.montecarlo.moves import Consolidate
from wedlock.games.montecarlo.play import GAP, Position, Table
from wedlock.games.montecarlo.player import PlayerView
from wedlock.games.montecarlo.rules import RULE_SETS
from wedlock.games.plain_space import PlainSpace
from wedlock.search import state_graph as analysis
from wedlock.search.exhaustive import LOST, WON, Limits, solve

PYSOL = RULE_SETS["pysol"]


def grid_position(ranks_by_cell: dict[int, int], rules=PYSOL) -> tuple[Table, Position]:
    """A position with the given ranks on the grid, every other card already gone."""
    deck = full_deck(rules.decks)
    chosen: list[Card] = []
    for rank in ranks_by_cell.values():
        card = next(c for c in deck if c.rank == rank and c not in chosen)
        chosen.append(card)
    rest = [c for c in deck if c not in chosen]
    deal = tuple(chosen + rest)
    cells = [GAP] * rules.cells
    for i, cell in enumerate(ranks_by_cell):
        cells[cell] = i
    return Table(rules, deal), Position(tuple(cells), len(deal))


def figures_of(play) -> tuple[analysis.StateGraph, analysis.Figures]:
    graph = analysis.build(play)
    return graph, analysis.figures(play, graph)


def test_four_aces_in_a_row_counted_by_hand() -> None:
    # A A A A on the top row, nothing else. Pairs (1,2), (2,3), (3,4) in columns.
    # Removing 1-2 leaves 3-4: remove it (won) or consolidate first (then remove it).
    # Removing 3-4 leaves 1-2, which can only be removed. Removing 2-3 leaves 1 and 4 apart:
    # consolidate, then remove. So 4 winning sequences, every line wins, and the graph is
    # the start, the won state, and "A A" closed up (reached two ways).
    table, pos = grid_position({0: 1, 1: 1, 2: 1, 3: 1})
    graph, fig = figures_of(PlayerView(table, pos))
    assert fig.complete
    assert (fig.states, fig.edges, fig.won_states, fig.dead_ends, fig.winning_states) == (3, 3, 1, 0, 3)
    assert fig.sequences == 4
    assert fig.random == (Fraction(1), Fraction(1))
    assert fig.greedy == (Fraction(1), Fraction(1))
    assert len(fig.shortest_win) == 2
    assert fig.decisions == []


def test_three_aces_and_a_two_counted_by_hand() -> None:
    # A A A 2 on the top row. Removing 1-2 leaves A 2 apart, which consolidate into a stuck
    # A 2; removing 2-3 leaves A . . 2, the same after consolidating. Nothing can be won.
    table, pos = grid_position({0: 1, 1: 1, 2: 1, 3: 2})
    graph, fig = figures_of(PlayerView(table, pos))
    assert (fig.states, fig.won_states, fig.dead_ends, fig.winning_states, fig.sequences) == (2, 0, 1, 0, 0)
    assert fig.random == fig.greedy == (Fraction(0), Fraction(0))
    assert fig.shortest_win == [] and fig.decisions == []


def brute_force(key, is_won, moves, apply, takes_cards, start) -> tuple[int, Fraction, Fraction]:
    """(winning sequences, random player's odds, greedy player's odds) by plain recursion
    over single moves, memoised on the key."""
    memo: dict = {}

    def walk(p) -> tuple[int, Fraction, Fraction]:
        k = key(p)
        if k in memo:
            return memo[k]
        if is_won(p):
            result = (1, Fraction(1), Fraction(1))
        else:
            options = moves(p)
            preferred = [m for m in options if takes_cards(m)] or options
            wins, rand, greedy = 0, Fraction(0), Fraction(0)
            for move in options:
                w, r, g = walk(apply(p, move))
                wins += w
                rand += r / len(options)
                if move in preferred:
                    greedy += g / len(preferred)
            result = (wins, rand, greedy)
        memo[k] = result
        return result

    return walk(start)


def brute_force_mc(table: Table, pos: Position) -> tuple[int, Fraction, Fraction]:
    """Straight from the table's rules: no phases, no handed-on removals."""
    removes = lambda move: not isinstance(move, Consolidate)  # noqa: E731
    return brute_force(table.key, table.is_won, table.legal_moves, table.apply, removes, pos)


def brute_force_matrimony(view: MatrimonyView, pos) -> tuple[int, Fraction, Fraction]:
    plays = lambda choice: any(isinstance(m, MatrimonyPlay) for m in choice)  # noqa: E731
    return brute_force(view.key, view.is_won, view.choices, view.apply, plays, pos)


MC_CASES = [(name, seed) for name in ("pysol", "strict", "5x4", "thirteens", "weddings", "2decks") for seed in range(12)]


@pytest.mark.parametrize("name,seed", MC_CASES)
def test_monte_carlo_figures_match_brute_force(name: str, seed: int) -> None:
    rules = RULE_SETS[name]
    table, pos, _ = late_position(rules, seed, left=12 if rules.decks == 1 else 14)
    graph, fig = figures_of(PlayerView(table, pos))
    sequences, rand, greedy = brute_force_mc(table, pos)
    assert fig.complete
    assert fig.sequences == sequences
    assert fig.random == (rand, rand)
    assert fig.greedy == (greedy, greedy)
    assert (fig.winning_states > 0) == (sequences > 0) == bool(fig.shortest_win)


def test_brute_force_cases_include_wins_and_losses() -> None:
    outcomes = set()
    for name, seed in MC_CASES:
        table, pos, _ = late_position(RULE_SETS[name], seed, left=12 if RULE_SETS[name].decks == 1 else 14)
        outcomes.add(brute_force_mc(table, pos)[0] > 0)
    assert outcomes == {True, False}


def matrimony_positions(name: str):
    """Positions on and just off the last redeals of winning lines, and late random ones."""
    rules = MATRIMONY_RULES[name]
    for game in WON_ARNOLD if name == "arnold" else WON_PYSOL[:1]:
        for table, pos, _ in on_and_off_line(rules, game, 5 if name == "arnold" else 3):
            yield table, pos
    for game, seed in [(5, 2), (11, 3), (3, 6)]:
        table = MatrimonyTable(rules, deal_of(game))
        yield table, random_line(table, random.Random(seed), rounds=15)[0]


@pytest.mark.slow
@pytest.mark.parametrize("name", ["arnold", "pysol"])
def test_matrimony_figures_match_brute_force(name: str) -> None:
    outcomes = set()
    for table, pos in matrimony_positions(name):
        view = MatrimonyView(table, pos)
        graph, fig = figures_of(view)
        sequences, rand, greedy = brute_force_matrimony(view, view.start())
        assert fig.complete
        assert (fig.sequences, fig.random[0], fig.greedy[0]) == (sequences, rand, greedy)
        outcomes.add(sequences > 0)
    assert outcomes == {True, False}


def plain_verdict(table, pos) -> str:
    return solve(PlainSpace(table, pos), Limits(first_pass=None)).verdict


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    name=st.sampled_from(["pysol", "strict", "thirteens", "weddings"]),
    seed=st.integers(0, 10_000),
    pick=st.lists(st.integers(0, 10**6), min_size=1, max_size=4),
)
def test_can_still_win_agrees_with_the_solver(name: str, seed: int, pick: list[int]) -> None:
    table, pos, _ = late_position(RULE_SETS[name], seed, left=14)
    graph, fig = figures_of(PlayerView(table, pos))
    for p in pick + [0]:
        node = p % fig.states
        verdict = plain_verdict(table, graph.position(node))
        assert verdict == (WON if fig.can_win[node] else LOST)


def test_critical_decisions_keep_and_lose_what_they_say() -> None:
    checked = 0
    for name, seed in MC_CASES:
        rules = RULE_SETS[name]
        table, pos, _ = late_position(rules, seed, left=12 if rules.decks == 1 else 14)
        play = PlayerView(table, pos)
        graph, fig = figures_of(play)
        replayed = pos
        played = 0
        for decision in fig.decisions:
            while played + 1 < decision.move_number:
                replayed = table.apply(replayed, fig.shortest_win[played])
                played += 1
            for choice in decision.keep:
                assert plain_verdict(table, play.apply(replayed, choice)) == WON
            for choice in decision.lose:
                assert plain_verdict(table, play.apply(replayed, choice)) == LOST
            checked += 1
    assert checked > 0


def test_a_cut_graph_gives_bounds_around_the_whole_graphs_figures() -> None:
    for seed in range(6):
        table, pos, _ = late_position(PYSOL, seed, left=16)
        play = PlayerView(table, pos)
        whole = analysis.figures(play, analysis.build(play))
        if whole.states < 10:
            continue
        cut_graph = analysis.build(play, max_states=whole.states // 2)
        cut = analysis.figures(play, cut_graph)
        assert not cut.complete and cut.states <= whole.states // 2
        assert cut.random[0] <= whole.random[0] <= cut.random[1]
        assert cut.greedy[0] <= whole.greedy[0] <= cut.greedy[1]
        assert cut.sequences <= whole.sequences and cut.winning_states <= whole.winning_states
        assert cut.decisions == []


@pytest.mark.slow  # the quick tier keeps the cut graphs of tests/cli/test_analyze_cli.py
def test_a_cut_graph_holding_a_winning_line_still_bounds_the_whole_graphs_figures() -> None:
    """A solver's winning line added to a graph cut at any size: a win, figures that keep
    within the bounds around the whole graph's, a line that replays to a win."""
    checked = 0
    for seed in range(12):
        table, pos, _ = late_position(PYSOL, seed, left=16)
        play = PlayerView(table, pos)
        whole = analysis.figures(play, analysis.build(play))
        if not whole.shortest_win or whole.states < 6:
            continue
        at = play.start()
        keys = [play.key(at)]
        for move in whole.shortest_win:
            at = play.apply(at, (move,))
            keys.append(play.key(at))
        for size in range(1, whole.states):
            graph = analysis.build(play, max_states=size)
            walked = analysis.include_line(play, graph, keys)
            assert walked[0] == graph.start and graph.won[walked[-1]]
            cut = analysis.figures(play, graph)
            assert not cut.complete and cut.states <= whole.states
            assert 0 < cut.random[0] <= whole.random[0] <= cut.random[1]
            assert cut.greedy[0] <= whole.greedy[0] <= cut.greedy[1]
            assert cut.sequences <= whole.sequences and 0 < cut.winning_states <= whole.winning_states
            assert cut.shortest_win and len(cut.shortest_win) >= len(whole.shortest_win)
            replay = pos
            for move in cut.shortest_win:
                assert move in table.legal_moves(replay)
                replay = table.apply(replay, move)
            assert table.is_won(replay)
        checked += 1
    assert checked >= 2


@pytest.mark.parametrize("name", ["pysol", "strict", "5x4", "thirteens", "weddings", "2decks"])
def test_monte_carlo_fast_phases_equal_the_move_by_move_walk(name: str) -> None:
    rules = RULE_SETS[name]
    for seed in range(10):
        for left in (14, 30, rules.cards):  # late, middle, and the deal itself
            table, pos, _ = late_position(rules, seed, left=left if rules.decks == 1 else 2 * left)
            if seed % 2:  # a position inside a phase: one removal made
                removals = list(table.removals(pos))
                pos = table.apply(pos, removals[0]) if removals else pos
            play = PlayerView(table, pos)
            fast, walked = play.phase_exits(pos), analysis.walk_phase(play, pos)
            assert fast.keys() == walked.keys()
            for key, (after, exit) in fast.items():
                other = walked[key][1]
                assert (exit.sequences, exit.random, exit.greedy) == (other.sequences, other.random, other.greedy)
                assert table.key(after) == key and len(exit.line) == len(other.line)


@pytest.mark.slow
def test_matrimony_pysol_shortest_wins_replay_with_their_shifts() -> None:
    # The printed line must include every shift a PySolFC player makes, to make room for a
    # play and to put a suit that reaches 13 cards into the arrangement the analysis keeps.
    from wedlock.games.matrimony import GAME as MATRIMONY

    replayed = 0
    for game in WON_PYSOL:
        for table, pos, line in on_and_off_line(MATRIMONY_RULES["pysol"], game, 4):
            view = MatrimonyView(table, pos)
            if view.start() != pos:  # a suit at 13 cards in another arrangement
                continue
            graph, fig = figures_of(view)
            if not fig.shortest_win:
                continue
            replay = MATRIMONY.referee(table.rules, table.deal, list(line) + fig.shortest_win)
            assert replay.won, replay.problem
            replayed += 1
    assert replayed >= 3


def test_matrimony_pysol_choices_are_legal_move_for_move() -> None:
    # Every choice the analysis offers, shifts included, replays through the referee from
    # positions along the solver's winning lines; some of them settle a suit at 13 cards.
    from tests.games.test_matrimony_spaces import winning_line
    from wedlock.games.matrimony import GAME as MATRIMONY
    from wedlock.games.matrimony.moves import Shift

    rules = MATRIMONY_RULES["pysol"]
    settled_by_a_choice = 0
    for game in WON_PYSOL:
        table = MatrimonyTable(rules, deal_of(game))
        line = winning_line(game, "pysol")
        pos = table.start()
        for i, move in enumerate(line):
            view = MatrimonyView(table, pos)
            if view.start() == pos:
                for choice in view.choices(pos):
                    replay = MATRIMONY.referee(rules, table.deal, list(line[:i]) + list(choice))
                    assert replay.moves_played == i + len(choice), replay.problem
                    after = view.apply(pos, choice)
                    assert MatrimonyView(table, after).start() == after  # left settled
                    if isinstance(choice[-1], Shift):
                        settled_by_a_choice += 1
            pos = table.apply(pos, move)
    assert settled_by_a_choice > 0


class AlwaysWon:
    """A play whose start is already won: every playout wins."""

    def start(self):
        return 0

    def is_won(self, pos) -> bool:
        return True


def test_playout_estimates_keep_within_what_the_graph_proves() -> None:
    from wedlock.luck.playouts import estimate

    proven = {"games": 0, "value": 0.25, "low": 0.25, "high": 0.25}
    assert estimate(AlwaysWon(), (Fraction(1, 4), Fraction(1, 4)), 50, "s", False) == proven
    # All 50 playouts win, but the graph proves at most 1/2: the interval missed; keep the proof.
    missed = {"games": 50, "value": 0.5, "low": 0.0, "high": 0.5}
    assert estimate(AlwaysWon(), (Fraction(0), Fraction(1, 2)), 50, "s", False) == missed
    inside = estimate(AlwaysWon(), (Fraction(0), Fraction(1)), 50, "s", True)
    assert inside["value"] == 1.0 and 0.9 < inside["low"] < 1.0 == inside["high"]
    # Past the deadline no game is played: only the bounds are left.
    late = estimate(AlwaysWon(), (Fraction(0), Fraction(1)), 50, "s", True, deadline=0.0)
    assert late == {"games": 0, "value": None, "low": 0.0, "high": 1.0}
