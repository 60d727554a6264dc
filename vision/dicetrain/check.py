"""check picks the reader's two thresholds on held-out TRAINING scenes.

    python3 -m dicetrain.check [--scenes N] [--detector F] [--classifier F] [--rest]

It draws N scenes of the training generator that training never saw (seeds
from HELD_OUT on), reads each as dicereader.js does (the same detector
peaks, crops and classifier, in PyTorch), and tries thresholds: SEEN, how
strong a centre must be to count as a die, and SURE, how sure the
classifier must be of every face. It keeps the SEEN that counts the dice
right most often, and the lowest SURE whose whole throws read are at
least PRECISION right, and writes both to vision/build/thresholds.json,
which export puts in dice.bin's header. The test throws (dicetest) are
never looked at here: choosing on them would void their measurement.

When the detector has an edge map (train.py's edge step), a throw is also
refused when that map peaks above COCKED anywhere in the frame, and the
check picks SURE and COCKED together by the same rule: the pair that reads
the most held-out throws with at least PRECISION of them right (ties: the
lower SURE, then the higher COCKED). None reaching it, it keeps SURE's
last and no edge refusal. --rest draws the held-out scenes with the
cocked dice resting on the table, as the scenes4 training parts are drawn.

When the classifier also estimates each die's facing normal (tilt.py, a
trial: 10 outputs), a throw of two dice or more is also refused when one
die's normal leans more than ANGLE degrees from the others' (tilt.spread),
and the check picks SURE and ANGLE together by the same rule (ties: the
lower SURE, then the larger ANGLE); ANGLE 180 never refuses. A one-die
throw has no such cue: the check also tries holding it to its own SURE
(1.01: never read), as one more parameter of the same grid. It also
prints the normal's error at the reader's peaks, flat and cocked.

When a context network was trained (dicetrain.context, a trial the reader
does not use), it also prints what refusing a throw would do whenever that
network puts a die on edge above EDGE, for each SURE: BENCHMARKS.md, "Two
networks", is that table. No pair reached PRECISION, so nothing of it is
chosen or exported.
"""

import argparse
import json
import os
from functools import partial
from multiprocessing import Pool

import numpy as np
import torch

from dicetrain import tilt
from dicetrain.data import CELL, CROP, EDGE, NODIE, crop, half
from dicetrain.scenes import scene
from dicetrain.train import BUILD, normalize, probs, trained

HELD_OUT = 50_000_000  # training scenes use seeds 0 to DICE_SCENES
PRECISION = 0.99
SEENS = [round(0.15 + 0.05 * i, 2) for i in range(12)]
SURES = [0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.95, 0.97]
# COCKED: a throw is refused when the detector's edge map peaks above this
# anywhere; 1.0 never refuses (and is all there is without an edge map).
COCKEDS = [0.05, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0]
# EDGE: the context network's trial refuses a throw when it puts any die on
# edge above this; 1.0 never refuses.
EDGES = [0.02, 0.05, 0.1, 0.2, 0.3, 0.5, 1.0]
# ANGLE: the normals' trial refuses a throw when a die's facing normal leans
# more than this many degrees from the others'; 180 never refuses.
ANGLES = [4, 6, 8, 10, 12, 15, 20, 25, 180]


def draw(seed, rest=False):
    img, labels, normals = scene(np.random.default_rng(seed), rest, tilts=True)
    return img[..., ::-1].astype(np.float32), labels, normals


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


def frame_crops(cls, scene, found):
    """frame_crops is what cls makes of the dice found, cut from the frame
    itself (the reader before session 9)."""
    return probs(cls, [crop(scene[0], x, y, size * CROP) for x, y, size, _ in found])


def readings(det, cls, ctx, scenes, oracle=None, name=None):
    """readings reads every scene as dicereader.js does, at each SEEN: how
    many it counted right, and per scene whose count was right and not
    refused for a die named on edge: (whole throw right, least sure, a
    cocked die read as a face, the context network's edge, the edge map's
    peak, the normals' largest spread, the dice read, and each die's
    (sureness, read right) for a partial reading); and, per SEEN, the
    normals' error (degrees) at the peaks near a labelled die: (on edge, error). With
    oracle (a noise, in the normal's x and y), the spread is worked out
    from the labelled normals plus that noise instead (tilt.oracle): what
    the cue could do, to measure it, never to choose. name(scene, found)
    names the dice found (probs' answer); by default cls on the frame's own
    crops (level.py cuts them in the level view instead)."""
    name = name or partial(frame_crops, cls)
    counted = {s: 0 for s in SEENS}
    reads = {s: [] for s in SEENS}
    errors = {s: [] for s in SEENS}
    with torch.no_grad():
        x = torch.stack([torch.from_numpy(np.floor(half(img))).permute(2, 0, 1) for img, *_ in scenes])
        outs = det(normalize(x)).numpy()
    for sc, out in zip(scenes, outs):
        img, labels, normals = sc[:3]
        flat = [lab for lab in labels if lab[3] > 0]
        cocked = float(1 / (1 + np.exp(-out[2].max()))) if len(out) > 2 else 0.0
        for s in SEENS:
            found = peaks(out, s)
            if not found:
                if not labels:
                    counted[s] += 1
                continue
            p = name(sc, found)
            estimated = isinstance(p, tuple)
            p, xy = p if estimated else (p, None if oracle is None else np.zeros((len(p), 2)))
            best = p.argmax(1)
            keep = [i for i, b in enumerate(best) if b != NODIE]
            lean = 0.0
            if xy is not None and keep:
                near = xy[keep] if oracle is None else tilt.oracle([found[i] for i in keep], xy[keep], labels, normals,
                                                                     oracle, seed=len(reads[s]))
                lean = float(tilt.spread(tilt.camera_normals([found[i] for i in keep], near)).max())
                errors[s] += [] if not estimated else tilt.errors([found[i] for i in keep], xy[keep], labels, normals)
            dice = [(f, b, p[i, b]) for i, (f, b) in enumerate(zip(found, best)) if b != NODIE]
            if len(dice) != len(labels):
                continue
            counted[s] += 1
            if any(b == EDGE for _, b, _ in dice):
                continue  # refused as it should be when a label is on edge; never read
            edge = edge_of(ctx, img, dice)
            least = min(q for *_, q in dice)
            each = [(q, die_right(f, b, labels)) for f, b, q in dice]
            if len(flat) != len(labels):
                reads[s].append((False, least, True, edge, cocked, lean, len(dice), each))  # an edge die taken for a face
                continue
            ok = all(r for _, r in each)
            reads[s].append((ok, least, False, edge, cocked, lean, len(dice), each))
    return counted, reads, errors


def die_right(f, b, labels):
    """die_right says whether a die found at f and named b (a face's index)
    is read right: a flat die of that face is labelled within half its size
    of f, and no cocked one (a cocked die read as a face is wrong)."""
    near = [lf for lx, ly, ls, lf in labels if np.hypot(f[0] - lx, f[1] - ly) < 0.5 * ls]
    return b + 1 in near and 0 not in near


def sure_of(r, q, one):
    """sure_of says whether reading r is sure enough: SURE q, or for a
    one-die throw (which the normals cannot check) `one` when given."""
    return r[1] >= (one if one is not None and r[6] == 1 else q)


def grid(reads, edges, col, one=None):
    """grid prints, for each SURE and each threshold of one edge cue
    (column col of a reading), the throws read, right, and with a cocked
    die read as a face (one: the SURE of one-die throws, if their own)."""
    print('SURE   ' + '  '.join(f'{e:<17}' for e in edges))
    for q in SURES:
        cells = []
        for e in edges:
            got = [(r[0], r[2]) for r in reads if sure_of(r, q, one) and r[col] <= e]
            cells.append(f'{len(got):3d} ({sum(ok for ok, _ in got):3d} / {sum(c for _, c in got):2d})'.ljust(17))
        print(f'{q:<5}  ' + '  '.join(cells))


def choose(reads, cues, col=4, ones=(None,)):
    """choose is the (SURE, cue) pair that reads the most throws with at
    least PRECISION of them right, the cue a throw's column col (the edge
    map's peak, or the normals' spread) at most the cue's threshold; SURE's
    last and no refusal (the cues' last) if none. With ones, also the SURE
    of one-die throws (None: SURE's own), the lowest that reads the most."""
    best = (0, 0, 0, 0), SURES[-1], cues[-1], None
    for q in SURES:
        for e in cues:
            for one in ones:
                got = [r[0] for r in reads if sure_of(r, q, one) and r[col] <= e]
                key = (len(got), -q, e, -(one if one is not None else q))
                if got and np.mean(got) >= PRECISION and key > best[0]:
                    best = key, q, e, one
    return best[1:] if len(ones) > 1 else best[1:3]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scenes', type=int, default=400)
    ap.add_argument('--detector', default='detector.pt')
    ap.add_argument('--classifier', default='classifier.pt')
    ap.add_argument('--rest', action='store_true', help='cocked dice resting, as in the scenes4 parts')
    ap.add_argument('--save', default='thresholds.json')
    ap.add_argument('--oracle', type=float, help='the normals\' trial with the labelled normals plus this much noise '
                    '(a measure only: writes nothing)')
    a = ap.parse_args()
    det, cls = trained(a.detector, a.classifier)
    ctx = context_net()
    with Pool(2) as pool:
        scenes = pool.map(partial(draw, rest=a.rest), range(HELD_OUT, HELD_OUT + a.scenes), chunksize=8)
    counted, reads, errors = readings(det, cls, ctx, scenes, a.oracle)
    n = len(scenes)
    print('SEEN  dice counted right  ' + '  '.join(f'SURE {q}: read / right' for q in SURES))
    for s in SEENS:
        cells = []
        for q in SURES:
            got = [r[0] for r in reads[s] if r[1] >= q]
            cells.append(f'{len(got) / n:.3f} / {np.mean(got) if got else 0:.4f}')
        print(f'{s:.2f}  {counted[s] / n:.3f}  ' + '  '.join(cells))
    seen = max(SEENS, key=lambda s: (counted[s], -abs(s - 0.4)))
    cockeds = COCKEDS if det.head.out_channels > 2 else [1.0]
    sure, cocked = choose(reads[seen], cockeds)
    lean, one = ANGLES[-1], None
    if cls.fc2.out_features > 8 or a.oracle is not None:
        assert len(cockeds) == 1, 'the edge map and the normals are tried one at a time'
        sure, lean, one = choose(reads[seen], ANGLES, col=5, ones=[None] + SURES + [1.01])
        tilt.report(errors[seen])
        print(f'SEEN {seen}: throws read (right / a cocked die read as a face), refusing when a die\'s normal leans '
              'more than ANGLE degrees from the others\' (columns)')
        grid(reads[seen], ANGLES, 5)
        ones = [r for r in reads[seen] if r[6] == 1]
        print(f'of which one-die throws (no cue): {len(ones)} read at SURE 0.5 ({sum(r[0] for r in ones)} right / '
              f'{sum(r[2] for r in ones)} cocked); at 0.97: {sum(r[1] >= 0.97 for r in ones)}')
        if one is not None:
            print(f'SEEN {seen}: the same with one-die throws held to their own SURE {one} (1.01: never read), '
                  'as the choice wants')
            grid(reads[seen], ANGLES, 5, one)
    if ctx is not None:
        print(f'SEEN {seen}: throws read (right / a cocked die read as a face), refusing when the context network '
              'puts a die on edge above EDGE')
        grid(reads[seen], EDGES, 3)
    if len(cockeds) > 1:
        print(f'SEEN {seen}: throws read (right / a cocked die read as a face), refusing when the edge map peaks '
              'above COCKED (columns)')
        grid(reads[seen], cockeds, 4)
    for q in SURES:  # what the wrong readings are, at the chosen SEEN
        got = [(r[0], r[2]) for r in reads[seen] if r[1] >= q]
        print(f'SEEN {seen}, SURE {q}: {len(got)} throws read, {sum(ok for ok, _ in got)} right, '
              f'{sum(c for _, c in got)} wrong for a cocked die read as a face')
    limits = {'seen': seen, 'sure': sure, 'scenes': n}
    if cocked < 1.0:
        limits['cocked'] = cocked
    if lean < ANGLES[-1]:
        limits.update(angle=lean, focal=tilt.FOCAL)
    if one is not None:
        limits['sureOne'] = one
    if a.oracle is None:
        with open(os.path.join(BUILD, a.save), 'w') as f:
            json.dump(limits, f)
    print(f'chosen on {n} held-out training scenes: SEEN {seen}, SURE {sure}'
          + (f', COCKED {cocked}' if cocked < 1.0 else '') + (f', ANGLE {lean}' if lean < ANGLES[-1] else '')
          + (f', SURE of one die {one}' if one is not None else ''))


if __name__ == '__main__':
    main()
