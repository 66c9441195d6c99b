"""wedlock's version, which every results line and saved plugin names."""

__version__ = "0.6.0"
