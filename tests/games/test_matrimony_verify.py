"""The independent Matrimony referee, by hand-worked positions, and cross-checked against the
move generator (`play.py`) over random games: both must agree on every position and on every
move's legality, and no card is ever lost or doubled.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from wedlock.basics.cards import Card, full_deck
from wedlock.basics.errors import DealError, IllegalMoveError
from wedlock.basics.numbering import GameNumber
from wedlock.games.matrimony.deal import numbered_deal
from wedlock.games.matrimony.moves import DEAL, Deal, Play, Redeal, Shift, coded, move_of
from wedlock.games.matrimony.play import Position, Table, redealt
from wedlock.games.matrimony.rules import RULE_SETS, card_of
from wedlock.games.matrimony.verify import Table as RefTable
from wedlock.games.matrimony.verify import Verdict, apply, deal_table, problem_with, referee, replay_codes

ARNOLD, PYSOL = RULE_SETS["arnold"], RULE_SETS["pysol"]
C = Card.parse
GAME_1 = numbered_deal(GameNumber.parse("1"))  # piles 3D 5H JC KH 5S 5H KC KC 8D AS 8C 6C 6H TC 8D 4C


def table_with(rules, piles: list[str], foundations: list[str], stock: str = "", redeals: int = 0) -> RefTable:
    """A referee position from text: piles bottom card first, foundations as their cards."""
    return RefTable(
        tuple(tuple(C(x) for x in p.split()) for p in piles),
        tuple(tuple(C(x) for x in f.split()) for f in foundations),
        tuple(C(x) for x in stock.split()),
        redeals,
    )


def test_opening_position_of_game_1() -> None:
    table = deal_table(ARNOLD, GAME_1)
    assert [str(p[0]) for p in table.piles] == "3D 5H JC KH 5S 5H KC KC 8D AS 8C 6C 6H TC 8D 4C".split()
    assert table.foundations == ((C("QD"),), (C("JD"),), (), (), (), (), (), ())
    assert len(table.stock) == 86 and str(table.stock[0]) == "JS"
    pysol = deal_table(PYSOL, GAME_1)
    assert pysol.foundations[3] == (C("JD"),) and pysol.foundations[7] == (C("QD"),)


def test_deal_must_be_two_packs() -> None:
    with pytest.raises(DealError, match="104"):
        deal_table(ARNOLD, full_deck(1))
    with pytest.raises(DealError, match="3 of"):
        deal_table(ARNOLD, full_deck(2)[:-1] + [C("AC")])


def test_game_1_arnold_opening_moves() -> None:
    # No pile top goes to a foundation at first (QD wants KD, JD wants TD, the rest want JH/TS/TC):
    # pile 14 holds TC, which the empty 10♣ foundations take.
    table = deal_table(ARNOLD, GAME_1)
    assert problem_with(ARNOLD, table, Play(13, C("TC"), 6)) == ""
    assert problem_with(ARNOLD, table, Play(13, C("TC"), 7)) == ""
    assert "a card can still be played" in problem_with(ARNOLD, table, Deal())
    assert "takes JH next" in problem_with(ARNOLD, table, Play(13, C("TC"), 2))
    assert "top card of pile 14 is TC, not 9C" in problem_with(ARNOLD, table, Play(13, C("9C"), 6))
    assert "stock still holds" in problem_with(ARNOLD, table, Redeal(15))
    assert "never move again" in problem_with(ARNOLD, table, Shift(0, 1, C("QD")))
    table = apply(ARNOLD, table, Play(13, C("TC"), 6))
    assert table.piles[13] == () and table.foundations[6] == (C("TC"),)
    assert problem_with(ARNOLD, table, Deal()) == ""
    dealt = apply(ARNOLD, table, Deal())
    assert [len(p) for p in dealt.piles] == [2] * 13 + [1] + [2] * 2
    assert dealt.piles[0] == (C("3D"), C("JS")) and dealt.piles[13] == (C("7D"),)
    with pytest.raises(IllegalMoveError):
        apply(ARNOLD, table, Redeal(15))


def test_pysol_deals_at_any_time() -> None:
    table = deal_table(PYSOL, GAME_1)
    assert problem_with(PYSOL, table, Deal()) == ""


def test_redeal_goes_bottom_card_first_back_onto_the_same_pile() -> None:
    piles = [""] * 16
    piles[15] = "AC 2C 3C"
    piles[0] = "9H"
    table = table_with(ARNOLD, piles, [""] * 8)
    after = apply(ARNOLD, table, Redeal(15))
    assert after.piles[15] == (C("AC"),)
    assert after.piles[0] == (C("9H"), C("2C"))
    assert after.piles[1] == (C("3C"),)
    assert after.redeals == 1
    assert "pile 15's turn" in problem_with(ARNOLD, after, Redeal(15))
    assert problem_with(ARNOLD, after, Redeal(14)) == ""


def test_long_pile_wraps_round_onto_itself() -> None:
    piles = [""] * 16
    piles[14] = " ".join(str(card_of(c)) for c in range(18))  # AC .. 5S, 18 cards
    after = apply(ARNOLD, table_with(ARNOLD, piles, [""] * 8, redeals=1), Redeal(14))
    assert after.piles[14] == (C("AC"), C("4S"))  # the 1st and the 17th card
    assert after.piles[15] == (C("2C"), C("5S"))
    assert after.piles[0] == (C("3C"),)


def test_redeals_run_out() -> None:
    table = table_with(PYSOL, [""] * 16, [""] * 8, redeals=16)
    assert "all 16 redeals" in problem_with(PYSOL, table, Redeal(0))


def test_pysol_shift_needs_thirteen_cards_between_the_two() -> None:
    # J♠ down holds J..8, Q♠ up holds Q..7: 13 cards; 8S may shift up, 7S may shift down.
    jdown = "JS TS 9S 8S"
    qup = "QS KS AS 2S 3S 4S 5S 6S 7S"
    foundations = ["", jdown, "", "", "", qup, "", ""]
    table = table_with(PYSOL, [""] * 16, foundations)
    assert problem_with(PYSOL, table, Shift(1, 5, C("8S"))) == ""
    assert problem_with(PYSOL, table, Shift(5, 1, C("7S"))) == ""
    assert "is 8S, not 7S" in problem_with(PYSOL, table, Shift(1, 5, C("7S")))
    piles = ["9S"] + [""] * 15
    assert "takes 8S next, not 9S" in problem_with(PYSOL, table_with(PYSOL, piles, foundations), Play(0, C("9S"), 5))
    full_up = table_with(PYSOL, ["2S"] + [""] * 15, ["", "", "", "", "", "QS KS AS 2S 3S 4S 5S 6S 7S 8S 9S TS JS", "", ""])
    assert problem_with(PYSOL, full_up, Shift(5, 1, C("JS"))) == ""  # onto the empty J♠ down
    assert "complete" in problem_with(PYSOL, full_up, Play(0, C("2S"), 5))


def test_referee_names_the_first_bad_move() -> None:
    verdict = referee(ARNOLD, GAME_1, [Play(13, C("TC"), 6), Play(13, C("TC"), 7)])
    assert not verdict.won and verdict.moves_played == 1
    assert verdict.problem.startswith("move 2 (pile 14: TC to F8 (10♣ down)): pile 14 is empty")
    short = referee(ARNOLD, GAME_1, [Play(13, C("TC"), 6)])
    assert short.problem == "the only move is legal but 101 cards are not on the foundations"



@given(st.lists(st.binary(max_size=40), min_size=16, max_size=16), st.integers(0, 15))
def test_the_move_generators_redeal_is_the_referees(piles: list[bytes], p: int) -> None:
    # play.redealt rebuilds only the piles a redeal touches; the referee deals card by card.
    piles = [bytes(code % 52 for code in pile) for pile in piles]
    ref = table_with(PYSOL, [" ".join(str(card_of(c)) for c in pile) for pile in piles], [""] * 8, redeals=15 - p)
    after = apply(PYSOL, ref, Redeal(p))  # PySolFC's rules: a redeal with cards still to play
    assert [bytes(x.rank - 1 + 13 * x.suit for x in pile) for pile in after.piles] == list(redealt(tuple(piles), p))

# --- the referee against the move generator ------------------------------------------------


def same_position(table: Table, pos: Position, ref: RefTable) -> None:
    assert [bytes(x.rank - 1 + 13 * x.suit for x in p) for p in ref.piles] == list(pos.piles)
    assert [len(f) for f in ref.foundations] == list(pos.foundations)
    assert list(ref.stock) == list(table.deal[pos.stock :])
    assert ref.redeals == pos.rounds
    every = [c for p in ref.piles for c in p] + [c for f in ref.foundations for c in f] + list(ref.stock)
    assert Counter(every) == Counter(full_deck(2))


def candidate_moves(pos: Position) -> list:
    """Many moves, legal and not, to ask both sides about."""
    out: list = [Deal(), *(Redeal(p) for p in range(16))]
    for p in range(16):
        for f in range(8):
            for code in set(pos.piles[p][-1:]) | {0, 24}:
                out.append(Play(p, card_of(code), f))
    for f in range(8):
        for g in range(8):
            out.append(Shift(f, g, card_of(13 * 3 + 10)))
            out.append(Shift(f, g, card_of(13 * 1 + 7)))
    return out


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(RULE_SETS))
def test_referee_and_move_generator_agree_over_random_games(name: str) -> None:
    rules = RULE_SETS[name]
    rng = random.Random(7)
    for game in range(1, 9):
        deal = numbered_deal(GameNumber.parse(str(game)))
        table, ref = Table(rules, deal), deal_table(rules, deal)
        pos = table.start()
        for _ in range(400):
            same_position(table, pos, ref)
            legal = table.legal_moves(pos)
            for move in candidate_moves(pos) + legal:
                assert (problem_with(rules, ref, move) == "") == (move in legal), (game, move)
            if not legal:
                break
            plays = [m for m in legal if isinstance(m, (Play, Shift))]
            move = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
            pos, ref = table.apply(pos, move), apply(rules, ref, move)


# --- the replay on small ints agrees with the reference, move for move --------------------


def slip(rng: random.Random, rules, pos: Position) -> object:
    """A move that may well be illegal: a pile's top (or another card) to some foundation, a
    foundation's top (or another card) shifted to another, a deal, or a redeal of some pile."""
    kind = rng.random()
    if kind < 0.15:
        return Deal()
    if kind < 0.3:
        return Redeal(rng.randrange(-1, 17))
    if kind < 0.75:
        p = rng.randrange(16)
        card = card_of(pos.piles[p][-1]) if pos.piles[p] and rng.random() < 0.7 else card_of(rng.randrange(52))
        return Play(rng.randrange(-1, 17) if rng.random() < 0.1 else p, card, rng.randrange(-1, 9) if rng.random() < 0.1 else rng.randrange(8))
    f = rng.randrange(8)
    top = rules.takes[f][pos.foundations[f] - 1] if pos.foundations[f] else rng.randrange(52)
    return Shift(f, rng.randrange(-1, 9) if rng.random() < 0.2 else rng.choice(rules.of_suit[top // 13]), card_of(top if rng.random() < 0.8 else rng.randrange(52)))


def line_with_slips(rules, deal: list[Card], rng: random.Random, slips: float, most: int = 160) -> list:
    """Legal moves picked at random (plays first, mostly), each replaced at the rate `slips`
    by a move that may be illegal; after an illegal one, anything."""
    table = Table(rules, deal)
    pos, line = table.start(), list[object]()
    while len(line) < most:
        legal = table.legal_moves(pos)
        if rng.random() < slips or (not legal and rng.random() < 0.5):
            move = slip(rng, rules, pos)
            line.append(move)
            if move not in legal:
                return line + [slip(rng, rules, pos) for _ in range(rng.randrange(3))]
        elif not legal:
            return line
        else:
            plays = [m for m in legal if isinstance(m, (Play, Shift))]
            move = rng.choice(plays) if plays and rng.random() < 0.85 else rng.choice(legal)
            line.append(move)
        pos = table.apply(pos, move)  # type: ignore[arg-type]
    return line


@settings(max_examples=80, deadline=None)
@given(
    name=st.sampled_from(sorted(RULE_SETS)),
    seed=st.integers(0, 2**32 - 1),
    slips=st.sampled_from([0.0, 0.01, 0.05, 0.3]),
    rng=st.randoms(use_true_random=False),
)
def test_the_replay_on_ints_agrees_with_the_reference(name: str, seed: int, slips: float, rng: random.Random) -> None:
    rules = RULE_SETS[name]
    deal = numbered_deal(GameNumber.parse(str(seed + 1)))
    line = line_with_slips(rules, deal, rng, slips)
    verdict = referee(rules, deal, line)
    codes = [coded(move) for move in line]
    assert None not in codes
    assert replay_codes(rules, deal, codes) == (verdict.won, verdict.moves_played)  # type: ignore[arg-type]


def test_the_replay_on_ints_wins_nothing_on_a_bad_deal() -> None:
    bad = GAME_1[:-1] + [C("AC") if GAME_1[-1] != C("AC") else C("AS")]
    assert replay_codes(ARNOLD, bad, [(DEAL,)]) == (False, 0)
    with pytest.raises(DealError):
        referee(ARNOLD, bad, [Deal()])


@given(st.sampled_from(sorted(RULE_SETS)), st.randoms(use_true_random=False))
def test_coded_moves_round_trip(name: str, rng: random.Random) -> None:
    move = slip(rng, RULE_SETS[name], Table(RULE_SETS[name], GAME_1).start())
    assert move_of(coded(move)) == move  # type: ignore[arg-type]


def test_malformed_moves_have_no_code() -> None:
    for bad in (Play(True, C("AC"), 0), Play(0, "AC", 0), Shift(0, 1.0, C("AC")), Redeal("16"), "deal", None):  # type: ignore[arg-type]
        assert coded(bad) is None


def test_empty_piles_are_no_win_while_the_stock_holds_cards() -> None:
    # Arnold's foundations take these sixteen pile cards one after another.
    piles = [C(x) for x in "JH JH TS TS TC TC KD TD 9S 9S 9C 9C TH TH 8S 8S".split()]
    rest = Counter(full_deck(2)) - Counter([C("JD"), C("QD"), *piles])
    deal = [C("JD"), C("QD"), *piles, *sorted(rest.elements())]
    table, moves = deal_table(ARNOLD, deal), []
    for p, card in enumerate(piles):
        move = next(m for f in range(8) if problem_with(ARNOLD, table, m := Play(p, card, f)) == "")
        moves.append(move)
        table = apply(ARNOLD, table, move)
    verdict = referee(ARNOLD, deal, moves)
    assert verdict == Verdict(False, 16, "all 16 moves are legal but 86 cards are not on the foundations")
    assert replay_codes(ARNOLD, deal, [coded(m) for m in moves]) == (False, 16)  # type: ignore[misc]


def test_the_replay_on_ints_never_shifts_under_arnold() -> None:
    # The empty twin 10♣ foundation would take TC next: a shift PySolFC's rules would allow.
    line = [Play(13, C("TC"), 6), Shift(6, 7, C("TC"))]
    assert referee(ARNOLD, GAME_1, line).problem.startswith("move 2 (shift TC from F7 (10♣ down) to F8 (10♣ down)): foundation cards never")
    assert replay_codes(ARNOLD, GAME_1, [coded(m) for m in line]) == (False, 1)  # type: ignore[misc]
