"""check picks the reader's two thresholds on held-out TRAINING scenes.

    python3 -m dicetrain.check [--scenes N]

It draws N scenes of the training generator that training never saw (seeds
from HELD_OUT on), reads each as dicereader.js does (the same detector
peaks, crops and classifier, in PyTorch), and tries thresholds: SEEN, how
strong a centre must be to count as a die, and SURE, how sure the
classifier must be of every face. It keeps the SEEN that counts the dice
right most often, and the lowest SURE whose whole throws read are at
least PRECISION right, and writes both to vision/build/thresholds.json,
which export puts in dice.bin's header. The test throws (dicetest) are
never looked at here: choosing on them would void their measurement.

When a context network was trained (dicetrain.context, a trial the reader
does not use), it also prints what refusing a throw would do whenever that
network puts a die on edge above EDGE, for each SURE: BENCHMARKS.md, "Two
networks", is that table. No pair reached PRECISION, so nothing of it is
chosen or exported.
"""

import argparse
import json
import os
from multiprocessing import Pool

import numpy as np
import torch

from dicetrain.data import CELL, CROP, EDGE, NODIE, crop, half
from dicetrain.scenes import scene
from dicetrain.train import BUILD, normalize, probs, trained

HELD_OUT = 50_000_000  # training scenes use seeds 0 to DICE_SCENES
PRECISION = 0.99
SEENS = [round(0.15 + 0.05 * i, 2) for i in range(12)]
SURES = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97]
# EDGE: the context network's trial refuses a throw when it puts any die on
# edge above this; 1.0 never refuses.
EDGES = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0]


def draw(seed):
    img, labels = scene(np.random.default_rng(seed))
    return img[..., ::-1].astype(np.float32), labels


def peaks(out, seen):
    """peaks is centres() of dicereader.js: 3x3 maxima above seen, refined
    by their neighbours, then no two closer than 0.6 of a die's side."""
    heat = 1 / (1 + np.exp(-out[0]))
    gh, gw = heat.shape
    found = []
    for y, x in zip(*np.nonzero(heat >= seen)):
        v = heat[y, x]
        ys, xs = slice(max(0, y - 1), min(gh, y + 2)), slice(max(0, x - 1), min(gw, x + 2))
        nb = heat[ys, xs]
        if v < nb.max():
            continue
        gy, gx = np.mgrid[ys, xs]
        found.append(((nb * gx).sum() / nb.sum() * CELL + 1, (nb * gy).sum() / nb.sum() * CELL + 1,
                      float(np.exp(out[1, y, x])), float(v)))
    found.sort(key=lambda p: -p[3])
    kept = []
    for p in found:
        if all(np.hypot(k[0] - p[0], k[1] - p[1]) > 0.6 * max(k[2], p[2]) for k in kept):
            kept.append(p)
    return kept


def centres(det, img, seen):
    """centres is peaks() of the detector on one image (RGB, full size), as
    dicereader.js finds the dice."""
    with torch.no_grad():
        out = det(normalize(torch.from_numpy(np.floor(half(img))).permute(2, 0, 1)[None]))[0].numpy()
    return peaks(out, seen)


def context_net():
    """context_net is the flat-or-on-edge network, when one was trained."""
    if not os.path.exists(os.path.join(BUILD, 'context.pt')):
        return None
    from dicetrain import context
    return context.trained()


def edge_of(ctx, img, dice):
    """edge_of is how likely the likeliest cocked die of a throw is on edge,
    by the context network (0 without one)."""
    if ctx is None:
        return 0.0
    from dicetrain import context
    p = probs(ctx, [crop(img, f[0], f[1], f[2] * context.SIDES, n=context.SIZE) for f, _, _ in dice])
    return float(p[:, EDGE].max())


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scenes', type=int, default=400)
    a = ap.parse_args()
    det, cls = trained()
    ctx = context_net()
    with Pool(2) as pool:
        scenes = pool.map(draw, range(HELD_OUT, HELD_OUT + a.scenes), chunksize=8)
    counted = {s: 0 for s in SEENS}
    reads = {s: [] for s in SEENS}  # per scene: (whole right, least sure, a die cocked, edge) when the count is right
    with torch.no_grad():
        x = torch.stack([torch.from_numpy(np.floor(half(img))).permute(2, 0, 1) for img, _ in scenes])
        outs = det(normalize(x)).numpy()
    for (img, labels), out in zip(scenes, outs):
        flat = [lab for lab in labels if lab[3] > 0]
        for s in SEENS:
            found = peaks(out, s)
            if not found:
                if not labels:
                    counted[s] += 1
                continue
            p = probs(cls, [crop(img, x, y, size * CROP) for x, y, size, _ in found])
            best = p.argmax(1)
            dice = [(f, b, p[i, b]) for i, (f, b) in enumerate(zip(found, best)) if b != NODIE]
            if len(dice) != len(labels):
                continue
            counted[s] += 1
            if any(b == EDGE for _, b, _ in dice):
                continue  # refused as it should be when a label is on edge; never read
            edge = edge_of(ctx, img, dice)
            if len(flat) != len(labels):
                reads[s].append((False, min(q for *_, q in dice), True, edge))  # an edge die taken for a face
                continue
            ok = all(any(np.hypot(f[0] - lx, f[1] - ly) < 0.5 * ls and b + 1 == lf for lx, ly, ls, lf in flat)
                     for f, b, _ in dice)
            reads[s].append((ok, min(q for *_, q in dice), False, edge))
    n = len(scenes)
    print('SEEN  dice counted right  ' + '  '.join(f'SURE {q}: read / right' for q in SURES))
    for s in SEENS:
        cells = []
        for q in SURES:
            got = [ok for ok, least, _, _ in reads[s] if least >= q]
            cells.append(f'{len(got) / n:.3f} / {np.mean(got) if got else 0:.4f}')
        print(f'{s:.2f}  {counted[s] / n:.3f}  ' + '  '.join(cells))
    seen = max(SEENS, key=lambda s: (counted[s], -abs(s - 0.4)))
    sure = next((q for q in SURES if np.mean([ok for ok, least, _, _ in reads[seen] if least >= q] or [0]) >= PRECISION),
                SURES[-1])
    if ctx is not None:
        print(f'SEEN {seen}: throws read (right / a cocked die read as a face), refusing when a die is on edge above EDGE')
        print('SURE   ' + '  '.join(f'EDGE {e:<14}' for e in EDGES))
        for q in SURES:
            cells = []
            for e in EDGES:
                got = [(ok, c) for ok, least, c, ed in reads[seen] if least >= q and ed <= e]
                cells.append(f'{len(got):3d} ({sum(ok for ok, _ in got):3d} / {sum(c for _, c in got):2d})'.ljust(19))
            print(f'{q:<5}  ' + '  '.join(cells))
    for q in SURES:  # what the wrong readings are, at the chosen SEEN
        got = [(ok, cocked) for ok, least, cocked, _ in reads[seen] if least >= q]
        print(f'SEEN {seen}, SURE {q}: {len(got)} throws read, {sum(ok for ok, _ in got)} right, '
              f'{sum(c for _, c in got)} wrong for a cocked die read as a face')
    with open(os.path.join(BUILD, 'thresholds.json'), 'w') as f:
        json.dump({'seen': seen, 'sure': sure, 'scenes': n}, f)
    print(f'chosen on {n} held-out training scenes: SEEN {seen}, SURE {sure}')


if __name__ == '__main__':
    main()
