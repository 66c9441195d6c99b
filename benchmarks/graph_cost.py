"""What a networkx graph costs per edge here, and what a whole deal's graph would cost.

    python3 benchmarks/graph_cost.py [--edges 2000000] [--per-state 19.5]
        [--states 1877299 --total-edges 36600000]

Why `wedlock analyze` keeps no networkx graph (docs/SOLVER.md, "Large graphs, in arrays"):
a `networkx.DiGraph` with one attribute per edge, as an export holds. This builds such a graph of `--edges` edges (integer nodes, `--per-state` edges
out of each, one shared attribute object, as `analyze` stores its exits) and measures the
time and the growth of the peak resident memory. It then scales both to a graph of
`--states` states and `--total-edges` edges: by default Monte Carlo game 1 under PySolFC's
rules, whose whole phase graph has 1,877,183 states and 36.6 million edges
(`analysis_speed.py 1`). Prints a markdown table.
"""

from __future__ import annotations

import argparse
import resource
import time


def peak_bytes() -> int:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024  # Linux reports KiB


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--edges", type=int, default=2_000_000)
    parser.add_argument("--per-state", type=float, default=19.5)
    parser.add_argument("--states", type=int, default=1_877_183)
    parser.add_argument("--total-edges", type=int, default=36_600_000)
    args = parser.parse_args()

    import networkx as nx

    exit_info = object()
    nodes = max(1, round(args.edges / args.per_state))
    before = peak_bytes()
    started = time.perf_counter()
    graph = nx.DiGraph()
    graph.add_nodes_from(range(nodes))
    for k in range(args.edges):
        source, j = k % nodes, k // nodes  # the j-th edge out of `source`
        graph.add_edge(source, (source * 13 + j * 7919 + 1) % nodes, exit=exit_info)
    seconds = time.perf_counter() - started
    grown = peak_bytes() - before
    edges = graph.number_of_edges()
    per_edge = grown / edges
    per_second = edges / seconds
    whole_gb = per_edge * args.total_edges / 1e9
    whole_s = args.total_edges / per_second
    print("| graph | states | edges | seconds to store | memory |")
    print("|---|---|---|---|---|")
    print(f"| built here | {nodes:,} | {edges:,} | {seconds:.1f} | {grown / 1e6:,.0f} MB ({per_edge:.0f} B an edge) |")
    print(f"| scaled to the whole deal | {args.states:,} | {args.total_edges:,} | {whole_s:.0f} | {whole_gb:.1f} GB |")


if __name__ == "__main__":
    main()
