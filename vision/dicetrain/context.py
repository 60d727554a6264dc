"""context trains the third network: one that sees a die with its
surroundings and says whether it lies flat or stands on edge.

    python3 -m dicetrain.context data|train [--scenes N] [--epochs E]

The face classifier sees 1.5 die sides at 32x32 px and reads faces well,
but a die cocked on edge whose upper face, through a tilted camera, looks
like a flat die's top fools it (BENCHMARKS.md, "Why it is not sure"). This
network sees 2 die sides at 40x40 px (the pips keep their size; the die's
foot, its shadow and its neighbours come into view) and names the same
eight classes; the reader takes only its "on edge" from it: a throw is read
when every die's face is sure AND no die is on edge by this network's
reckoning (dicetrain.check picks both thresholds).

Its crops come from the same training scenes (the same seeds, drawn
again: the scene is the first thing each seed draws), cut where the
reader cuts: around the centre with the detector's jitter and side
(1.09 times the true one at the median, 0.93-1.27), and, for each cocked
die, six more where the detector's peaks on cocked dice fall (off its
middle by up to 0.6 of a side, 0.95 to 1.45 times its side).
"""

import argparse
import os
import time
from multiprocessing import Pool

import numpy as np
import torch

from dicetrain.data import EDGE, NODIE, crop
from dicetrain.scenes import H, W, scene
from dicetrain.train import BUILD, PART, Classifier, train_classifier

SIDES = 2.0  # a context crop's side, in die sides
SIZE = 40  # its pixels a side
CELLS = SIZE // 8  # after three 2x2 pools


def examples(seed):
    """examples draws training scene `seed` and cuts its context crops."""
    img, labels = scene(np.random.default_rng(seed))
    rgb = img[..., ::-1].astype(np.float32)
    rng = np.random.default_rng([seed, 27])  # the crops' own stream: the scene is as training drew it
    xs, ys = [], []
    for x, y, s, f in labels:
        cuts = [(rng.normal(0, 0.09 * s, 2), rng.uniform(0.9, 1.3)) for _ in range(4)]
        if f == 0:
            for _ in range(6):
                a, d = rng.uniform(0, 2 * np.pi), min(abs(rng.normal(0, 0.3)), 0.6) * s
                cuts.append(((d * np.cos(a), d * np.sin(a)), rng.uniform(0.95, 1.45)))
        for (ex, ey), k in cuts:
            xs.append(crop(rgb, x + ex, y + ey, s * SIDES * k, rng.uniform(0, 2 * np.pi), SIZE))
            ys.append(EDGE if f == 0 else f - 1)
    sizes = [s for *_, s, _ in labels] or [30.0]
    for _ in range(20):  # one crop of no die: background or half a die
        s = float(rng.choice(sizes)) * rng.uniform(0.8, 1.2)
        if labels and rng.uniform() < 0.5:
            lx, ly, ls, _ = labels[rng.integers(0, len(labels))]
            a, d = rng.uniform(0, 2 * np.pi), ls * rng.uniform(0.6, 0.85)
            x, y = lx + d * np.cos(a), ly + d * np.sin(a)
        else:
            x, y = rng.uniform(0, W), rng.uniform(0, H)
        if all(np.hypot(x - lx, y - ly) > 0.55 * ls for lx, ly, ls, _ in labels):
            xs.append(crop(rgb, x, y, s * SIDES, rng.uniform(0, 2 * np.pi), SIZE))
            ys.append(NODIE)
            break
    return xs, ys


def part(first, scenes):
    n = min(PART, scenes - first)
    return os.path.join(BUILD, f'context-{first}-{first + n}.npz')


def load(scenes):
    parts = [np.load(part(first, scenes)) for first in range(0, scenes, PART)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}


def net():
    return Classifier(cells=CELLS)


def trained():
    c = net()
    c.load_state_dict(torch.load(os.path.join(BUILD, 'context.pt')))
    c.eval()
    return c


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('step', choices=['data', 'train'])
    ap.add_argument('--scenes', type=int, default=9000)
    ap.add_argument('--epochs', type=int, default=8)
    a = ap.parse_args()
    torch.manual_seed(0)
    os.makedirs(BUILD, exist_ok=True)
    if a.step == 'data':
        for first in range(0, a.scenes, PART):
            path = part(first, a.scenes)
            if os.path.exists(path):
                continue
            t = time.time()
            with Pool(int(os.environ.get('DICE_PROCS') or 2)) as pool:
                out = pool.map(examples, range(first, first + min(PART, a.scenes - first)), chunksize=16)
            xs = np.stack([c for o in out for c in o[0]])
            ys = np.array([y for o in out for y in o[1]])
            print(f'{path}: {len(xs)} crops in {time.time() - t:.0f}s; per class (1-6, edge, none):',
                  np.bincount(ys, minlength=8).tolist(), flush=True)
            np.savez(path, xs=xs, ys=ys)
    else:
        d = load(a.scenes)
        c = net()
        train_classifier(c, d['xs'], d['ys'], a.epochs)
        torch.save(c.state_dict(), os.path.join(BUILD, 'context.pt'))


if __name__ == '__main__':
    main()
