#!/usr/bin/env bash
# Seeds fuzz/corpus/TARGET with the small bundled files of each format
# (libFuzzer mutates from them). Run from the repository root.
set -euo pipefail
cd "$(dirname "$0")/.."
small() { find "$@" -type f -size -8k 2>/dev/null; }
seed() {
    local target=$1; shift
    mkdir -p "fuzz/corpus/$target"
    for f in $(small "$@"); do cp "$f" "fuzz/corpus/$target/$(echo "$f" | tr '/' '_')"; done
}
seed polycube instances/polycube tests/data/polycube-errors
seed meta instances/edgematch/brendan_set2/pieces_0[3-6]x0*.txt tests/data/edgematch-errors
seed heule instances/edgematch/heule2008 tests/data/edgematch tests/data/edgematch-errors
seed emx tests/data/edgematch-errors tests/data/encoders/tiny_2x2.txt
seed board tests/data/edgematch-errors
seed bucas tests/data/edgematch-errors
seed input instances/polycube tests/data/encoders tests/data/edgematch tests/data/edgematch-errors
seed dlx tests/data/encoders/knuth_colors.dlx
for t in cnf model clique graph lp_solution; do mkdir -p "fuzz/corpus/$t"; done
printf 'c x\np cnf 3 2\n1 -3 0\n2 3\n-1 0\n' > fuzz/corpus/cnf/small.cnf
printf 's SATISFIABLE\nv 1 -2 3\nv -4 0\n' > fuzz/corpus/model/comp.txt
printf 'SAT\n1 -2 3 0\n' > fuzz/corpus/model/minisat.txt
printf 'size=3, weight=3:   1 5 9\n' > fuzz/corpus/clique/cliquer.txt
printf 'c map\n1 0 0 tile 1 at r0c0 rotation 0\n2 5 0 x\n' > fuzz/corpus/clique/map.txt
printf 'c g\np edge 4 3\ne 1 2\ne 1 3\ne 2 3\n' > fuzz/corpus/graph/g.txt
printf 'Primal solution values\nx_1_1_1_0 1\nx_2_1_2_1 1\n# Dual solution values\n' > fuzz/corpus/lp_solution/highs.txt
printf '# board\n1/0 2/1 . 4/3\n5/0 6/0 7/0 8/0\n' > fuzz/corpus/board/b.txt
printf 'one jblackwood aabbccdd\n' > fuzz/corpus/bucas/b.txt
