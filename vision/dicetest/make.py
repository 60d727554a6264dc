"""make writes the test throws: JPEG frames and truth.json, all from one seed.

    python3 -m dicetest.make OUT [--throws N]

Each throw is one of four kinds, each with what the reader should do:
  read   1-5 flat dice, sharp enough: read every face right;
  count  the same, but the pad expects one die more or fewer: refuse;
  edge   one die cocked on another or the rim: refuse;
  blur   a shaken or out-of-focus frame: refuse (or read right).
"""

import argparse
import json
import os
from multiprocessing import Pool

import cv2
import numpy as np

from dicetest.render import render

KINDS = ['read'] * 14 + ['count', 'count', 'edge', 'edge', 'blur']


def one(i):
    rng = np.random.default_rng(1_000_003 + i)
    kind = KINDS[i % len(KINDS)]
    while True:
        n = int(rng.choice([1, 2, 3, 4, 5, 5, 5]))
        if kind == 'edge':
            n = max(n, 2)
        blur, motion = rng.uniform(0, 1.2), int(rng.choice([0, 0, 0, 1, 2]))
        if kind == 'blur':
            blur, motion = (rng.uniform(4, 7), 0) if rng.random() < 0.5 else (rng.uniform(0, 1), int(rng.integers(9, 15)))
        out = render(rng, n, edge=kind == 'edge', blur=blur, motion=motion)
        if out is not None and len(out[1]) == n:
            break
    img, truth, how = out
    expect = n
    if kind == 'count':
        expect = n + 1 if n < 5 and (n == 1 or rng.random() < 0.5) else n - 1
    name = f'{i:04d}.jpg'
    return name, cv2.cvtColor(img, cv2.COLOR_RGB2BGR), int(rng.uniform(80, 95)), {
        'file': name, 'kind': kind, 'expect': expect, 'dice': truth, **how}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('out')
    ap.add_argument('--throws', type=int, default=240)
    ap.add_argument('--first', type=int, default=0)
    a = ap.parse_args()
    os.makedirs(a.out, exist_ok=True)
    with Pool(4) as pool:
        items = []
        for name, img, q, rec in pool.imap(one, range(a.first, a.first + a.throws), chunksize=4):
            cv2.imwrite(os.path.join(a.out, name), img, [cv2.IMWRITE_JPEG_QUALITY, q])
            items.append(rec)
    with open(os.path.join(a.out, 'truth.json'), 'w') as f:
        json.dump({'generator': 'dicetest.render (ray traced)', 'throws': items}, f, indent=1)


if __name__ == '__main__':
    main()
