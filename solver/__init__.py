"""wedlock: exact solvers for the patience games Monte Carlo and Matrimony."""

__version__ = "0.1.0"
