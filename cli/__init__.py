"""The wedlock command line: a thin layer over the library."""
