"""why looks into the reader's refusals: where the dice it is not sure of
go wrong. It only looks; nothing it prints chooses a threshold or a
training setting (dicetrain.check does that, on training scenes).

    python3 -m dicetest.why [--set build/testset]

On the readable test throws, with the networks in vision/build/ in
PyTorch and the reader's own peak and crop code, each frame brought to
320x240 by OpenCV's area resize (close to, not exactly, grab's canvas):
how far the detector's centres and sides are from the truth, and how
often the classifier is right, and sure, at the detector's centres and
at the true ones, by face and by die style. On the classifier's held-out
training crops (the first twentieth, as train.py holds them out): which
classes it confuses, dice on edge among them. On the check's held-out
training scenes: where the detector's peaks on cocked dice fall, and
what the classifier names them there.
"""

import argparse
import json
import os

import cv2
import numpy as np

from multiprocessing import Pool

from dicetrain.check import HELD_OUT, centres, draw
from dicetrain.data import CROP, EDGE, crop
from dicetrain.train import BUILD, load, probs, trained

SURE = 0.97  # the committed face threshold, to count the dice it is sure of


def test_dice(det, cls, seen, folder):
    """test_dice is one row per readable test die: its truth, the
    classifier at the true centre, and at the detector's nearest centre."""
    with open(os.path.join(folder, 'truth.json')) as f:
        throws = json.load(f)['throws']
    rows = []
    for t in throws:
        if t['kind'] != 'read':
            continue
        img = cv2.imread(os.path.join(folder, t['file']))[..., ::-1]
        img = cv2.resize(img, (320, 240), interpolation=cv2.INTER_AREA).astype(np.float32)
        found = centres(det, img, seen)
        true = probs(cls, [crop(img, d['x'], d['y'], d['size'] * CROP) for d in t['dice']])
        at = probs(cls, [crop(img, x, y, s * CROP) for x, y, s, _ in found]) if found else None
        for i, d in enumerate(t['dice']):
            r = {'face': d['face'], 'style': d['style'], 'true': true[i]}
            near = [(np.hypot(f[0] - d['x'], f[1] - d['y']), k) for k, f in enumerate(found)]
            dist, k = min(near) if near else (np.inf, -1)
            if dist < 0.5 * d['size']:
                r.update(off=dist / d['size'], side=found[k][2] / d['size'], found=at[k])
            rows.append(r)
    return rows


def right(p, face):
    return p.argmax() == face - 1


def report_test(rows):
    found = [r for r in rows if 'found' in r]
    print(f'readable test dice: {len(rows)}; a detector centre within half a side: {len(found)}')
    off = [r['off'] for r in found]
    side = [r['side'] for r in found]
    print(f'centre off by (sides): median {np.median(off):.3f}, 90th percentile {np.percentile(off, 90):.3f}; '
          f'side found / true: median {np.median(side):.3f}, 10th-90th {np.percentile(side, 10):.3f}-'
          f'{np.percentile(side, 90):.3f}')
    for name, key, rs in (('detector centres', 'found', found), ('true centres', 'true', rows)):
        ok = [right(r[key], r['face']) for r in rs]
        sure = [right(r[key], r['face']) and r[key].max() >= SURE for r in rs]
        wrong = sum(not right(r[key], r['face']) and r[key].max() >= SURE for r in rs)
        print(f'at the {name}: right {np.mean(ok):.3f}, right and {SURE} sure {np.mean(sure):.3f}, '
              f'{SURE} sure and wrong {wrong}')
    conf = np.zeros((6, 8), int)
    for r in found:
        conf[r['face'] - 1, r['found'].argmax()] += 1
    print('at the detector centres, true face (rows 1-6) against read (1-6, on edge, no die):')
    print(conf)
    print('right / right and sure, by style: ' + ', '.join(
        f"{s} {np.mean([right(r['found'], r['face']) for r in found if r['style'] == s]):.2f}"
        f"/{np.mean([right(r['found'], r['face']) and r['found'].max() >= SURE for r in found if r['style'] == s]):.2f}"
        for s in sorted({r['style'] for r in found})))


def report_crops(cls, scenes):
    d = load(scenes)
    n = len(d['xs']) // 20  # train.py's held-out crops
    p = np.concatenate([probs(cls, list(d['xs'][i:i + 4096])) for i in range(0, n, 4096)])[:n]
    y = d['ys'][:n]
    conf = np.zeros((8, 8), int)
    for a, b in zip(y, p.argmax(1)):
        conf[a, b] += 1
    print(f'held-out training crops: {n}, wrong {np.mean(p.argmax(1) != y):.3f}; '
          'true (rows 1-6, on edge, no die) against read:')
    print(conf)


def report_cocked(det, cls, seen, n=400):
    with Pool(2) as pool:
        scenes = pool.map(draw, range(HELD_OUT, HELD_OUT + n), chunksize=8)
    rows = []  # per peak on a cocked die: off its middle, side found / labelled, named on edge there
    for img, labels, _ in scenes:
        for x, y, side, _ in centres(det, img, seen):
            near = [lab for lab in labels if np.hypot(x - lab[0], y - lab[1]) < 0.7 * lab[2]]
            if near and near[0][3] == 0:
                lx, ly, ls, _ = near[0]
                p = probs(cls, [crop(img, x, y, side * CROP)])[0]
                rows.append((np.hypot(x - lx, y - ly) / ls, side / ls, p.argmax() == EDGE))
    r = np.array(rows)
    print(f'held-out training scenes: {len(r)} detector peaks on cocked dice; off their middle by '
          f'{np.median(r[:, 0]):.2f} of a side (median; 90th percentile {np.percentile(r[:, 0], 90):.2f}), '
          f'side found / labelled {np.median(r[:, 1]):.2f}; named on edge there: {int(r[:, 2].sum())}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--set', default=os.path.join(BUILD, 'testset'))
    ap.add_argument('--scenes', type=int, default=9000, help='the training scenes the classifier learned from')
    a = ap.parse_args()
    det, cls = trained()
    with open(os.path.join(BUILD, 'thresholds.json')) as f:
        seen = json.load(f)['seen']
    report_test(test_dice(det, cls, seen, a.set))
    report_crops(cls, a.scenes)
    report_cocked(det, cls, seen)


if __name__ == '__main__':
    main()
