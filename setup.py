"""The compiled search core, built where a C compiler is found (pyproject.toml has the rest).

`optional=True`: without a compiler, or if the build fails, the install goes on without it
and wedlock runs its pure-Python search (docs/SOLVER.md, "The compiled core").
"""

from setuptools import Extension, setup

CORE = Extension(
    "wedlock._core",
    sources=["solver/_core/module.c", "solver/_core/search.c", "solver/_core/montecarlo.c", "solver/_core/arnold.c", "solver/_core/graph.c",
             "solver/_core/pysol_dead.c", "solver/_core/pysol.c", "solver/_core/referee.c", "solver/_core/pysol_rollouts.c"],
    depends=["solver/_core/core.h", "solver/_core/bignum.h", "solver/_core/bytemap.h", "solver/_core/pysol_dead.h", "solver/_core/referee.h"],
    extra_compile_args=["-O2", "-std=c11", "-Wall", "-Wextra"],
    optional=True,
)

setup(ext_modules=[CORE])
