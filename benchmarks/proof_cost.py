"""What it costs to prove PySolFC Matrimony positions lost, for each engine variant: the
yardstick that cuts to the exact search are measured on (docs/SOLVER.md, "The proof-cost
yardstick").

    python3 benchmarks/proof_cost.py                     # everything: ~17 min, 4.3 GB at the peak
    python3 benchmarks/proof_cost.py --skip-319          # the positions only: ~2 min
    python3 benchmarks/proof_cost.py --only-319          # game 319 from the deal: ~17 min
    python3 benchmarks/proof_cost.py --census-in benchmarks/census-319-exact.json --phi-band 10

Three kinds of rows, each searched in a process of its own so that its peak memory (the
child's own, from os.wait4) is its own:

- *game 319 from the deal*: the whole proof that the deal is lost (218 million states with
  the exact search as it is), within `--max-states`;
- *positions of lost deals*: games 319, 2224, 2464, 2707, 2946 and 3202, right after the
  fifth and the last deal and after redeals 1, 4 and 8 (`--points`; after the fourth deal
  one of them already takes more than 40 million states), on two lines the quick stages play
  (`--lines`): `nrpa`, the best line of NRPA at level 3, 30 iterations a level, over
  decisions, seed 3 (the quick stage that wins the most), and `greedy`, the line the first
  beam's playouts follow from the deal (the exact space's first line, which plays every
  card it can). A position is the line's prefix replayed up to that deal or redeal; a line
  that ends before it has no position there;
- *small positions*: twenty late positions of those lines cut down to two suits (the other
  two suits' cards taken out of the piles and put on their foundations), which the plain
  search over single moves (games/plain_space.py) proves lost within 46,000 states, a
  second or so, each. They are made-up positions, not relaxations of the ones they come
  from (a redeal places cards by count). The plain search runs on each too, as the
  reference every variant's verdict must match.

A variant is the exact search with a set of cuts, named on the command line (`--variant
exact,...`); each cut that lands adds its variant to VARIANTS and its row to the table.
The compiled core counts the states of each search by deals and redeals made, cards on
the foundations and holds (the census); for game 319 the script prints where the states
of its proof go, by deal and redeal and by phi = cards on the foundations + deals made +
redeals made. It also checks, on every line it draws, that each play, deal and redeal
raises phi by one and that each shift leaves the position as the key merges it.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import NamedTuple

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from wedlock.basics.compiled import compiled_core  # noqa: E402
from wedlock.games.matrimony import GAME  # noqa: E402
from wedlock.games.matrimony.deal import LAYOUT  # noqa: E402
from wedlock.games.matrimony.moves import Deal, Move, Redeal, Shift  # noqa: E402
from wedlock.games.matrimony.play import Position, Table, settled_foundations  # noqa: E402
from wedlock.games.matrimony.pysol_levels import search_by_levels  # noqa: E402
from wedlock.games.matrimony.pysol_space import PysolPhaseSpace, PysolSpace  # noqa: E402
from wedlock.games.matrimony.rollouts import Rollout, RolloutSpace, compiled_rollout, position_bytes  # noqa: E402
from wedlock.games.matrimony.rules import DECK, FOUNDATION_CARDS, PILES, RULE_SETS  # noqa: E402
from wedlock.games.plain_space import PlainSpace  # noqa: E402
from wedlock.search.exhaustive import Limits, solve  # noqa: E402

RULES = RULE_SETS["pysol"]
LOST_DEALS = (319, 2224, 2464, 2707, 2946, 3202)  # 319 proven lost; the others unknown after 1,500 s
POINTS = ("deal 5", "deal 6", "redeal 1", "redeal 4", "redeal 8")
LINE_SEARCH = Rollout("nrpa", "decisions", 3, 30, seed=3)
SUIT_LETTERS = "CSHD"
EPOCHS = 6 + 16 + 1  # deals and redeals made: 0 to 22
CENSUS_HOLDS = 4  # the census's holds: 0, 1, 2, 3 or more
PLAIN_STATES = 200_000  # the reference's limit on the small positions (each needs under 60,000)


class Spot(NamedTuple):
    """A position of the yardstick: a deal's line replayed to a point, perhaps cut to two suits."""

    kind: str  # "deal", "late" or "small"
    game: int
    line: str = ""  # "nrpa" or "greedy"
    point: str = ""  # "deal 6", "redeal 4", ...
    suits: str = ""  # the suits a small position keeps, as letters

    @property
    def name(self) -> str:
        if self.kind == "deal":
            return f"{self.game} from the deal"
        name = f"{self.game}, {self.line} line, after {self.point}"
        return name + (f", {self.suits} only" if self.suits else "")


# Late positions of the lines above cut down to two suits, which the plain search proves
# lost within 60,000 states: found by trying every pair of suits at each redeal of both
# lines of the six deals, keeping those that the exact search needs 5 states or more for,
# the costliest first, each deal at least once.
SMALL = tuple(
    Spot("small", game, line, f"redeal {r}", suits)
    for game, line, r, suits in (
        (2707, "nrpa", 4, "SH"),
        (2707, "greedy", 5, "SH"),
        (2224, "greedy", 12, "SH"),
        (2224, "greedy", 12, "SD"),
        (2464, "greedy", 5, "CH"),
        (2707, "greedy", 7, "SD"),
        (3202, "nrpa", 12, "SH"),
        (2707, "greedy", 8, "SD"),
        (3202, "nrpa", 13, "SH"),
        (2224, "greedy", 14, "SD"),
        (2224, "greedy", 13, "SH"),
        (2464, "greedy", 4, "HD"),
        (2707, "greedy", 9, "SD"),
        (3202, "greedy", 9, "CD"),
        (3202, "nrpa", 14, "CD"),
        (2464, "nrpa", 12, "SD"),
        (2464, "nrpa", 11, "SD"),
        (319, "nrpa", 12, "CH"),
        (319, "nrpa", 12, "SH"),
        (2946, "nrpa", 5, "SH"),
    )
)


# --- the lines and their positions ------------------------------------------------------


def table_of(game: int) -> Table:
    return Table(RULES, tuple(GAME.numbered_deal(RULES, str(game))))


def nrpa_line(table: Table) -> list[Move]:
    """The best line LINE_SEARCH finds from the deal, as primitive moves (the core's search
    keeps its best line; rollout_search hands it on only when it wins)."""
    core = compiled_core()
    assert core is not None  # main checks
    _, line, _, _, _ = compiled_rollout(core, table, table.start(), LINE_SEARCH, Limits(max_states=None))
    return RolloutSpace(table).moves([tuple(line)])


def greedy_line(table: Table) -> list[Move]:
    """The line the first quick stage's playouts follow from the deal (greedy_phase to the end)."""
    space = PysolPhaseSpace(table)
    state, steps = space.start(), []
    while (edge := next(space.greedy_phase(state), None)) is not None:
        steps.append(edge[0])
        state = edge[1]
    return space.moves(steps)


LINES: dict[str, Callable[[Table], list[Move]]] = {"nrpa": nrpa_line, "greedy": greedy_line}


def deals_made(pos: Position) -> int:
    return -(-(pos.stock - LAYOUT) // PILES)  # the last deal has 6 cards


def phi(pos: Position) -> int:
    """Cards on the foundations + deals made + redeals made."""
    return sum(pos.foundations) + deals_made(pos) + pos.rounds


def point_of(pos: Position, move: Move) -> str | None:
    """The point of the game a deal or redeal has just reached, or None after a play."""
    if isinstance(move, Redeal):
        return f"redeal {pos.rounds}"
    if isinstance(move, Deal):
        return f"deal {deals_made(pos)}"
    return None


def replay(table: Table, moves: list[Move]) -> dict[str, Position]:
    """The positions right after each deal and redeal of a line, by point."""
    pos, out = table.start(), {}
    for move in moves:
        pos = table.apply(pos, move)
        point = point_of(pos, move)
        if point is not None:
            out[point] = pos
    return out


def phi_steps(table: Table, moves: list[Move]) -> Counter:
    """How each move of a line changes phi, by kind of move; a shift also says whether the
    position as the key merges it stayed the same."""
    seen: Counter = Counter()
    pos = table.start()
    for move in moves:
        after = table.apply(pos, move)
        rise = phi(after) - phi(pos)
        if isinstance(move, Shift):
            same = settled_foundations(RULES, after.foundations) == settled_foundations(RULES, pos.foundations)
            seen["shift", rise, same] += 1
        else:
            seen[type(move).__name__.lower(), rise, True] += 1
        pos = after
    return seen


def two_suits(pos: Position, suits: str) -> Position:
    """The position with only `suits` left in play: the other suits' cards out of the piles
    and all on their foundations (the stock must be out)."""
    keep = {SUIT_LETTERS.index(s) for s in suits}
    assert pos.stock == DECK
    counts = list(pos.foundations)
    for s in range(4):
        if s not in keep:
            counts[RULES.jack_down[s]] = counts[RULES.queen_up[s]] = FOUNDATION_CARDS
    piles = tuple(bytes(code for code in pile if code // 13 in keep) for pile in pos.piles)
    return Position(piles, tuple(counts), pos.stock, pos.rounds)


# --- variants ------------------------------------------------------------------------------


class Searched(NamedTuple):
    """What one search said and cost (peak memory is measured by the parent)."""

    verdict: str
    states: int
    seconds: float  # wall-clock, the search alone
    cpu: float  # processor seconds, the search alone
    census: list  # [deals and redeals made, cards down, holds (3: 3 or more), states], or []


def exact(table: Table, pos: Position, max_states: int, time_limit: float | None) -> Searched:
    """The exact search as it is: PysolSpace in the compiled core, one pass, with the census."""
    space = PysolSpace(table, pos)
    core = compiled_core()
    assert core is not None  # main checks
    started, cpu = time.perf_counter(), time.process_time()
    (verdict, _, states, _, _), counts = core.search_pysol(
        space.key(space.start()), *space.core_rules(), node_limit=None, time_limit=time_limit, max_states=max_states, first_pass=None, census=True
    )
    seconds, cpu = time.perf_counter() - started, time.process_time() - cpu
    cells = memoryview(counts).cast("q")
    census = [[i // (105 * CENSUS_HOLDS), i // CENSUS_HOLDS % 105, i % CENSUS_HOLDS, n] for i, n in enumerate(cells) if n]
    return Searched(verdict, states, seconds, cpu, census)


def plain(table: Table, pos: Position, max_states: int, time_limit: float | None) -> Searched:
    """The reference: the plain search over single moves, in Python (no census)."""
    cpu = time.process_time()
    out = solve(PlainSpace(table, pos), Limits(max_states=max_states, time_limit=time_limit, first_pass=None))
    return Searched(str(out.verdict), out.states, out.seconds, time.process_time() - cpu, [])


class Variant(NamedTuple):
    """An engine variant of the yardstick."""

    name: str
    words: str
    run: Callable[[Table, Position, int, float | None], Searched]


def layers(table: Table, pos: Position, max_states: int, time_limit: float | None) -> Searched:
    """The exact space searched by levels of phi in the compiled core: the same states as
    `exact`, fewer held at once (no census: the levels are not kept)."""
    started, cpu = time.perf_counter(), time.process_time()
    found = search_by_levels(PysolSpace(table, pos), Limits(max_states=max_states, time_limit=time_limit))
    return Searched(found.verdict, found.states, time.perf_counter() - started, time.process_time() - cpu, [])


VARIANTS = {
    v.name: v
    for v in (
        Variant("exact", "the exact search as it is (PysolSpace, compiled core)", exact),
        Variant("layers", "the exact space by levels of phi (the same states, fewer held at once)", layers),
    )
}
REFERENCE = Variant("plain", "the plain search over single moves (reference, Python)", plain)


# --- one position in a child process --------------------------------------------------------


def child(request: str) -> None:
    """Search one position as the parent asks (JSON on the command line); print the answer."""
    ask = json.loads(request)
    variant = REFERENCE if ask["variant"] == REFERENCE.name else VARIANTS[ask["variant"]]
    pos = PysolSpace.position_of(bytes.fromhex(ask["position"]))
    found = variant.run(table_of(ask["game"]), pos, ask["max_states"], ask["time_limit"])
    print(json.dumps(found._asdict()), flush=True)


def measured(variant: str, game: int, pos: Position, max_states: int, time_limit: float | None) -> tuple[Searched, float]:
    """One search in a process of its own: what it found, and the child's peak memory in MB."""
    ask = {"variant": variant, "game": game, "position": position_bytes(pos).hex(), "max_states": max_states, "time_limit": time_limit}
    proc = subprocess.Popen([sys.executable, __file__, "--child", json.dumps(ask)], stdout=subprocess.PIPE, cwd=ROOT, text=True)
    assert proc.stdout is not None
    said = proc.stdout.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise SystemExit(f"{variant} on game {game}: the child failed ({proc.returncode})")
    return Searched(**json.loads(said.strip().splitlines()[-1])), usage.ru_maxrss / 1024


# --- where a proof's states go ----------------------------------------------------------------


def epoch_name(epoch: int) -> str:
    if epoch == 0:
        return "the layout, before any deal"
    return f"after deal {epoch}" if epoch <= 6 else f"after redeal {epoch - 6}"


def breakdown(census: list, band: int) -> list[str]:
    """Tables of a census: states by deal and redeal, and by phi (in bands of `band`)."""
    total = sum(n for *_, n in census)
    by_epoch: Counter = Counter()
    held: Counter = Counter()
    phis: dict[int, list[int]] = {}
    for epoch, cards, holds, n in census:
        by_epoch[epoch] += n
        held[epoch] += n * (holds > 0)
        phis.setdefault(epoch, []).append(cards + epoch)
    out = ["| states after | states | share | with holds | phi |", "|---|---|---|---|---|"]
    for epoch in sorted(by_epoch):
        share, span = by_epoch[epoch] / total, (min(phis[epoch]), max(phis[epoch]))
        out.append(f"| {epoch_name(epoch)} | {by_epoch[epoch]:,} | {share:.1%} | {held[epoch] / by_epoch[epoch]:.0%} | {span[0]}-{span[1]} |")
    out.append(f"| all | {total:,} | 100% | {sum(held.values()) / total:.0%} | |")
    layers: dict[int, Counter] = {}
    for epoch, cards, holds, n in census:
        layer = layers.setdefault((cards + epoch) // band * band, Counter())
        layer["all"] += n
        layer["deals"] += n * (epoch <= 6)
        layer["held"] += n * (holds > 0)
        layer["cards", cards] += n
    head = "phi" if band == 1 else f"phi (bands of {band})"
    out += ["", f"| {head} | states | share | before the first redeal | with holds |", "|---|---|---|---|---|"]
    for low in sorted(layers):
        c = layers[low]
        name = str(low) if band == 1 else f"{low}-{low + band - 1}"
        out.append(f"| {name} | {c['all']:,} | {c['all'] / total:.1%} | {c['deals'] / c['all']:.0%} | {c['held'] / c['all']:.0%} |")
    return out


# --- the run -----------------------------------------------------------------------------------


def spots(args: argparse.Namespace) -> tuple[list[tuple[Spot, Position]], Counter, int]:
    """The positions of the run, the phi check over every line drawn, and the lines drawn."""
    out: list[tuple[Spot, Position]] = []
    checked: Counter = Counter()
    lines: dict[tuple[int, str], dict[str, Position]] = {}
    wanted = set(args.lines) | ({s.line for s in SMALL} if not args.skip_small else set())
    for game in LOST_DEALS:
        table = table_of(game)
        for name in sorted(wanted):
            moves = LINES[name](table)
            checked += phi_steps(table, moves)
            lines[game, name] = replay(table, moves)
    if not args.skip_319:
        out.append((Spot("deal", 319), table_of(319).start()))
    if not args.only_319:
        for game in LOST_DEALS:
            for name in args.lines:
                for point in args.points:
                    if point in lines[game, name]:
                        out.append((Spot("late", game, name, point), lines[game, name][point]))
        if not args.skip_small:
            out += [(s, two_suits(lines[s.game, s.line][s.point], s.suits)) for s in SMALL]
    return out, checked, len(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", default="exact", help=f"variants, comma-separated, of {', '.join(VARIANTS)}")
    parser.add_argument("--max-states", type=int, default=300_000_000, help="states the search of 319 from the deal may hold")
    parser.add_argument("--position-states", type=int, default=40_000_000, help="states the search of any other position may hold")
    parser.add_argument("--time-limit", type=float, default=None, help="seconds a search may take (default: none)")
    parser.add_argument("--skip-319", action="store_true", help="leave out game 319 from the deal")
    parser.add_argument("--only-319", action="store_true", help="game 319 from the deal and nothing else")
    parser.add_argument("--skip-small", action="store_true", help="leave out the small positions")
    parser.add_argument("--lines", default="nrpa,greedy", help=f"the lines positions are drawn from, of {', '.join(LINES)}")
    parser.add_argument("--points", default=",".join(POINTS), help="where on a line, e.g. 'deal 5,redeal 2'")
    parser.add_argument("--phi-band", type=int, default=1, help="phi values a row of the breakdown by phi covers")
    parser.add_argument("--census-out", type=Path, help="write 319's census here as JSON: [deals and redeals made, cards down, holds, states]")
    parser.add_argument("--census-in", type=Path, help="only print the breakdown of a census written by --census-out")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child)
        return
    if args.census_in:  # a census kept from an earlier run: its tables, and nothing searched
        print("\n".join(breakdown(json.loads(args.census_in.read_text()), args.phi_band)))
        return
    if compiled_core() is None:
        raise SystemExit("the yardstick measures the compiled core, which is not built here")
    variants = [VARIANTS[v] for v in args.variant.split(",")]
    args.lines = args.lines.split(",")
    args.points = args.points.split(",")
    positions, checked, drawn = spots(args)
    rows, census = [], None
    for spot, pos in positions:
        states = args.max_states if spot.kind == "deal" else args.position_states
        runs = [REFERENCE, *variants] if spot.kind == "small" else variants
        for variant in runs:
            cap = min(states, PLAIN_STATES) if variant is REFERENCE else states
            found, peak = measured(variant.name, spot.game, pos, cap, args.time_limit)
            rows.append(Row(spot, pos, variant, found, peak, cap))
            if spot.kind == "deal" and variant.name == "exact":
                census = found.census
            print(f"{spot.name}: {variant.name} {found.verdict}, {found.states:,} states, {found.seconds:.1f} s", file=sys.stderr, flush=True)
    print("\n\n".join(report(rows, variants)))
    print(phi_report(checked, drawn))
    if census and args.census_out:
        args.census_out.write_text(json.dumps(census))
    if census:
        print("\nWhere the states of game 319's proof go (exact search, census of the compiled core):\n")
        print("\n".join(breakdown(census, args.phi_band)))


class Row(NamedTuple):
    spot: Spot
    pos: Position
    variant: Variant
    found: Searched
    peak: float  # MB
    cap: int  # the states the search was allowed


def verdict_text(row: Row) -> str:
    return row.found.verdict if row.found.verdict != "unknown" else f"unknown at {row.cap:,} states"


def cost(row: Row) -> str:
    return f"{row.found.states:,} | {row.found.seconds:.3f} | {row.found.cpu:.3f} | {row.peak:,.0f}"


def report(rows: list[Row], variants: list[Variant]) -> list[str]:
    """The tables: game 319 from the deal, the positions on lines, the small positions
    beside the plain search's verdicts, and a summary a variant a row."""
    out = []
    deal = [r for r in rows if r.spot.kind == "deal"]
    if deal:
        table = ["| game 319 from the deal | variant | verdict | states | seconds | CPU s | peak MB |", "|---|---|---|---|---|---|---|"]
        table += [f"| {r.spot.game} | {r.variant.name} | {verdict_text(r)} | {cost(r)} |" for r in deal]
        out.append("\n".join(table))
    late = [r for r in rows if r.spot.kind == "late"]
    if late:
        table = ["| game | line | after | cards down | phi | variant | verdict | states | seconds | CPU s | peak MB |", "|---|---|---|---|---|---|---|---|---|---|---|"]
        for r in late:
            s = r.spot
            table.append(f"| {s.game} | {s.line} | {s.point} | {sum(r.pos.foundations)} | {phi(r.pos)} | {r.variant.name} | {verdict_text(r)} | {cost(r)} |")
        out.append("\n".join(table))
    small = [r for r in rows if r.spot.kind == "small" and r.variant is not REFERENCE]
    if small:
        table = [
            "| game | line | after | suits | cards down | plain: verdict | plain: states | plain: CPU s | variant | verdict | states | seconds | CPU s | peak MB |",
            "|---|---|---|---|---|---|---|---|---|---|---|---|---|---|",
        ]
        for r in small:
            s = r.spot
            ref = next(x for x in rows if x.spot == s and x.variant is REFERENCE)
            verdict = verdict_text(r)
            if ref.found.verdict in ("won", "lost") and r.found.verdict in ("won", "lost") and r.found.verdict != ref.found.verdict:
                verdict += " (DISAGREES with the plain search)"
            table.append(
                f"| {s.game} | {s.line} | {s.point} | {s.suits} | {sum(r.pos.foundations)} | {verdict_text(ref)} | {ref.found.states:,} "
                f"| {ref.found.cpu:.2f} | {r.variant.name} | {verdict} | {cost(r)} |"
            )
        out.append("\n".join(table))
    table = [
        "| variant | 319 from the deal: states | CPU s | peak MB | positions on lines: decided | states | CPU s | peak MB "
        "| small positions: as the plain search | states | CPU s |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    for v in variants:
        d = [r for r in deal if r.variant is v]
        lines = [r for r in late if r.variant is v]
        mine = [r for r in small if r.variant is v]
        agree = sum(r.found.verdict == next(x for x in rows if x.spot == r.spot and x.variant is REFERENCE).found.verdict for r in mine)
        first = f"{verdict_text(d[0])}, {d[0].found.states:,} | {d[0].found.cpu:,.0f} | {d[0].peak:,.0f}" if d else "not run | | "
        decided = sum(r.found.verdict != "unknown" for r in lines)
        table.append(
            f"| {v.name} | {first} | {decided} of {len(lines)} | {sum(r.found.states for r in lines):,} | {sum(r.found.cpu for r in lines):.1f} "
            f"| {max((r.peak for r in lines), default=0):,.0f} | {agree} of {len(mine)} | {sum(r.found.states for r in mine):,} "
            f"| {sum(r.found.cpu for r in mine):.2f} |"
        )
    out.append("\n".join(table))
    return out


def phi_report(checked: Counter, drawn: int) -> str:
    """What the lines drawn say of the claim that every move raises phi by one."""
    moves = sum(checked.values())
    odd = {k: n for k, n in checked.items() if k[1] != (0 if k[0] == "shift" else 1) or not k[2]}
    shifts = sum(n for k, n in checked.items() if k[0] == "shift")
    said = f"\nphi over the {drawn} lines drawn: {moves:,} moves, {shifts:,} of them shifts; "
    if odd:
        return said + f"EXCEPTIONS (kind, rise, merged position unchanged): {odd}"
    return said + "each play, deal and redeal raised phi by one, and each shift left the position as the key merges it"

if __name__ == "__main__":
    main()
