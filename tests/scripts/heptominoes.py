#!/usr/bin/env python3
"""Writes instances/polycube/heptominoes_33x23_def.txt: the 108 free
heptominoes in a 33 x 23 box (756 cells) with 3 stationary cells (759 - 756).

One heptomino encloses a hole (a ring of 7 around an empty cell whose
fourth side is closed by the piece); no other piece can enter that hole, so
one stationary cell must sit in it in any solution. The 3 stationary
cells lie on the middle row at columns 5, 16 and 27 (symmetric under the
half turn of the box and the mirror images).

Usage: python3 tests/scripts/heptominoes.py > instances/polycube/heptominoes_33x23_def.txt
The Rust test `heptomino_definition_holds_the_108_free_heptominoes` checks
the committed file independently (counts, connectivity, distinctness).
"""

def normalise(cells):
    mx = min(x for x, y in cells)
    my = min(y for x, y in cells)
    return tuple(sorted((x - mx, y - my) for x, y in cells))

def canonical(cells):
    forms = []
    for sx in (1, -1):
        for swap in (False, True):
            for sy in (1, -1):
                t = [((y if swap else x) * sx, (x if swap else y) * sy) for x, y in cells]
                forms.append(normalise(t))
    return min(forms)

def grow(shapes):
    out = set()
    for s in shapes:
        cells = set(s)
        for x, y in s:
            for dx, dy in ((1, 0), (-1, 0), (0, 1), (0, -1)):
                n = (x + dx, y + dy)
                if n not in cells:
                    out.add(canonical(list(cells | {n})))
    return out

def main():
    shapes = {((0, 0),)}
    for _ in range(6):
        shapes = grow(shapes)
    shapes = sorted(shapes, key=lambda s: (max(x for x, _ in s) - min(x for x, _ in s), s), reverse=True)
    assert len(shapes) == 108, len(shapes)
    print("# The 108 free heptominoes in a 33 x 23 box (written by tests/scripts/heptominoes.py).")
    print("# 108 x 7 = 756 cells; the box has 759: 3 stationary cells X1 X2 X3 on the middle")
    print("# row (columns 5, 16, 27). One heptomino encloses a hole that only a stationary")
    print("# cell can fill. A huge-input test case (emx info, size caps): no count is known to emx.")
    print("D:xDim=33:yDim=23:zDim=1")
    for k, s in enumerate(shapes, 1):
        layout = ", ".join(f"{x} {y} 0" for x, y in s)
        print(f"C:name=H{k:03}:layout={layout}")
    for k, x in enumerate((5, 16, 27), 1):
        print(f"C:name=X{k}:type=S:layout={x} 11 0")
    print("~D")

if __name__ == "__main__":
    main()
