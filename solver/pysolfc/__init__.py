"""wedlock and PySolFC: everything that knows PySolFC's files and objects lives here.

PySolFC (github.com/shlomif/PySolFC, GPL) is the program most players of these games use.
This subpackage speaks its formats (saved games, history steps, seed pools) and holds the
plugin that runs inside it; nothing else in wedlock names PySolFC's classes or reads its
files. Nothing of PySolFC is copied here: its formats are written from their facts (docs/
PYSOLFC.md), and code that runs inside PySolFC reaches it only through the objects it is
handed.
"""
