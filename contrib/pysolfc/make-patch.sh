#!/usr/bin/env bash
# Remake always-solvable.patch against a PySolFC git repository's branch (default master):
# the patch's games, registrations and rules pages as they are, its four seed pools written
# afresh by `wedlock pysolfc seeds` from the tables of the wedlock installed here.
#
#   contrib/pysolfc/make-patch.sh PYSOLFC_GIT_DIR [BRANCH]
#
# PYSOLFC_GIT_DIR is a clone of github.com/shlomif/PySolFC (a bare one will do). Set
# WEDLOCK to the command that runs wedlock (default: wedlock).
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=${1:?usage: make-patch.sh PYSOLFC_GIT_DIR [BRANCH]}
branch=${2:-master}
wedlock=${WEDLOCK:-wedlock}
patch="$here/always-solvable.patch"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# Only the folders the patch touches: a clone without its large files cannot export the rest.
git -C "$repo" archive "$branch" -- pysollib html-src | tar -x -C "$work"
cd "$work"
git init -q
git add -A
git -c user.name=pysolfc -c user.email=pysolfc@localhost commit -qm "$branch"
git apply "$patch"
pools=pysollib/games/solvable_seeds
$wedlock pysolfc seeds monte-carlo --rules pysol --out "$pools/montecarlo_solvable_seeds.py"
$wedlock pysolfc seeds monte-carlo --rules weddings --out "$pools/weddings_solvable_seeds.py"
$wedlock pysolfc seeds monte-carlo --rules 2decks --out "$pools/montecarlo2decks_solvable_seeds.py"
$wedlock pysolfc seeds matrimony --rules pysol --out "$pools/matrimony_solvable_seeds.py"
git add -A
git diff --cached > "$work/new.patch"
mv "$work/new.patch" "$patch"
echo "wrote $patch"
