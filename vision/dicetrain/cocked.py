"""cocked looks at the training generator's dice on edge: how tilted they
are, how the camera sees them, and which of them the committed reader takes
for a face. It only looks; nothing it prints chooses a threshold or a
training setting.

    python3 -m dicetrain.cocked [--scenes 400] [--sheet /tmp/cocked.png]

It draws the check's held-out TRAINING scenes (seeds from HELD_OUT, as
dicetrain.check does; never the test throws), keeping each die's pose as
scenes.py made it (by wrapping solid.shadows, which gets every die in label
order; the scenes drawn are byte for byte the ones the check reads). Per
cocked die (label 0) it works out:

  tilt  the angle of the die's labelled top face from the table (scenes.py
        turns it 0.45-1.1 rad about x and up to 0.2 about y);
  lean  the angle of its MOST UPWARD face from the table: past 45 degrees
        of tilt a side face is the one most up;
  view  the angle between the camera's ray and the normal of the face that
        faces the camera most: a cube seen along the same direction in its
        own axes looks the same in a crop whether it is flat or cocked; for
        a flat die it is the camera's angle to the table there;
  shown the pips of that camera-facing face.

and reads it as dicereader.js does (the detector's peak nearest the die at
SEEN, a crop of 1.5 sides, the committed classifier). It prints these
figures for all cocked dice, for those read as a face at SURE or more, and
for those named "on edge", the same view angle for flat dice, and writes a
contact sheet: misread crops (as the classifier sees them, and 3 sides of
context) beside refused ones.
"""

import argparse
import json
import os
from multiprocessing import Pool

import cv2
import numpy as np

from dicetrain import scenes, solid
from dicetrain.check import HELD_OUT, centres
from dicetrain.data import CROP, EDGE, NODIE, crop
from dicetrain.train import BUILD, probs, trained

SURE = 0.97  # the committed face threshold


def draw(seed):
    """draw is check.draw plus each die's pose and the camera."""
    got = {}
    real = solid.shadows

    def keep(cam, dice, *rest):
        got.update(cam=cam, dice=dice)
        return real(cam, dice, *rest)
    solid.shadows = keep
    try:
        img, labels = scenes.scene(np.random.default_rng(seed))
    finally:
        solid.shadows = real
    poses = []
    for d in got.get('dice', []):
        r, cam = d['rot'], got['cam']
        normals = np.array([r @ n for n, _, _ in solid.FACES])
        ray = cam['pos'] - d['centre']
        ray /= np.linalg.norm(ray)
        k = int(np.argmax(normals @ ray))
        poses.append({'tilt': np.degrees(np.arccos(np.clip(normals[0, 2], -1, 1))),
                      'lean': np.degrees(np.arccos(np.clip(normals[:, 2].max(), -1, 1))),
                      'view': np.degrees(np.arccos(np.clip(normals[k] @ ray, -1, 1))),
                      'table': np.degrees(np.arccos(np.clip(ray[2], -1, 1))),
                      'facing': solid.project(cam, d['centre'] + 0.5 * normals[k]),
                      'middle': solid.project(cam, d['centre']), 'shown': d['faces'][k], 'top': d['top'], 'lift': d['centre'][2] + min(
                          (r @ np.array([sx, sy, sz]))[2] for sx in (-.5, .5) for sy in (-.5, .5) for sz in (-.5, .5))})
    return img[..., ::-1].astype(np.float32), labels, poses


def read(det, cls, seen, img, labels, poses):
    """read is one row per cocked die: its pose, what the classifier names
    it at the nearest detector peak, and its crops for the sheet."""
    found = centres(det, img, seen)
    rows, flat = [], []
    for (lx, ly, ls, lf), pose in zip(labels, poses):
        if lf:
            flat.append(pose['table'])
            continue
        row = dict(pose, named=None, skew=abs(pose['view'] - pose['table']))
        c = crop(img, lx, ly, ls * CROP)  # where training cut it
        p = probs(cls, [c])[0]
        row.update(at_label=int(p.argmax()), p_label=float(p.max()), crop_label=c,
                   wide_label=crop(img, lx, ly, ls * 3, n=64))
        near = sorted((np.hypot(x - lx, y - ly), x, y, s) for x, y, s, _ in found)
        if near and near[0][0] < 0.7 * ls:
            _, x, y, s = near[0]
            c = crop(img, x, y, s * CROP)
            p = probs(cls, [c])[0]
            # off the die's middle and off its camera-facing face's centre, in sides (before the keystone)
            row.update(named=int(p.argmax()), p=float(p.max()), crop=c, wide=crop(img, x, y, s * 3, n=64),
                       off_middle=np.hypot(*(np.array([x, y]) - pose['middle'])) / ls,
                       off_face=np.hypot(*(np.array([x, y]) - pose['facing'])) / ls)
        rows.append(row)
    return rows, flat


def spread(name, rows, key, d=0):
    v = np.array([r[key] for r in rows])
    if not len(v):
        return f'{name}: none'
    return (f'{name} ({len(v)}): median {np.median(v):.{d}f}, 10th-90th {np.percentile(v, 10):.{d}f}-'
            f'{np.percentile(v, 90):.{d}f}, range {v.min():.{d}f}-{v.max():.{d}f}')


def by(rows, key, edges):
    """by is the share named on edge, and the count, in bins of key."""
    out = []
    for lo, hi in zip(edges, edges[1:]):
        g = [r['named'] == EDGE for r in rows if lo <= r[key] < hi]
        out.append(f'{lo}-{hi}: {np.mean(g) if g else float("nan"):.2f} of {len(g)}')
    return ', '.join(out)


def sheet(path, wrong, refused, n=20):
    """sheet writes misread crops (left block) beside refused ones (right):
    each the 32x32 crop the classifier saw, enlarged, and 3 sides around."""
    def tile(r):
        a = cv2.resize(r['crop'], (96, 96), interpolation=cv2.INTER_NEAREST)
        b = cv2.resize(r['wide'], (96, 96), interpolation=cv2.INTER_LINEAR).astype(np.uint8)
        t = np.concatenate([a, b], 1)[..., ::-1].copy()
        txt = f"t{r['tilt']:.0f} v{r['view']:.0f} {r['named'] + 1 if r['named'] < 6 else 'E'} {r['p']:.2f}"
        cv2.putText(t, txt, (2, 92), cv2.FONT_HERSHEY_PLAIN, 0.8, (0, 255, 255), 1)
        return t
    blank = np.zeros((96, 192, 3), np.uint8)
    cols = []
    for group in (wrong[:n], refused[:n]):
        tiles = [tile(r) for r in group] + [blank] * (n - len(group))
        rows = [np.concatenate(tiles[i:i + 2], 1) for i in range(0, n, 2)]
        cols.append(np.concatenate(rows, 0))
    gap = np.full((cols[0].shape[0], 16, 3), 255, np.uint8)
    cv2.imwrite(path, np.concatenate([cols[0], gap, cols[1]], 1))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--scenes', type=int, default=400)
    ap.add_argument('--first', type=int, default=HELD_OUT, help='the first seed (HELD_OUT: the check\'s scenes)')
    ap.add_argument('--sheet', default='/tmp/cocked.png')
    a = ap.parse_args()
    det, cls = trained()
    with open(os.path.join(BUILD, 'thresholds.json')) as f:
        seen = json.load(f)['seen']
    rows, flat = [], []
    with Pool(2) as pool:
        for img, labels, poses in pool.imap(draw, range(a.first, a.first + a.scenes), chunksize=8):
            r, f = read(det, cls, seen, img, labels, poses)
            rows += r
            flat += f
    seen_rows = [r for r in rows if r['named'] is not None]
    wrong = [r for r in seen_rows if r['named'] < 6 and r['p'] >= SURE]
    unsure = [r for r in seen_rows if r['named'] < 6 and r['p'] < SURE]
    refused = [r for r in seen_rows if r['named'] == EDGE]
    print(f'{a.scenes} training scenes from seed {a.first}: {len(rows)} cocked dice, {len(seen_rows)} with a detector peak; '
          f'named a face at {SURE}+: {len(wrong)}, a face under {SURE}: {len(unsure)}, on edge: {len(refused)}, '
          f'no die: {sum(r["named"] == NODIE for r in seen_rows)}')
    print('view angle of flat dice (camera ray to the table normal), degrees: '
          f'median {np.median(flat):.0f}, 10th-90th {np.percentile(flat, 10):.0f}-{np.percentile(flat, 90):.0f}, '
          f'max {np.max(flat):.0f} ({len(flat)} dice)')
    for key, what in (('tilt', 'labelled top face from the table'), ('lean', 'most upward face from the table'),
                      ('view', 'camera ray to the camera-facing face'),
                      ('skew', 'view angle less the flat dice\'s there, absolute'), ('lift', 'lowest corner above the table, sides')):
        print(f'{key} ({what}):')
        for name, group in (('all cocked', rows), (f'read as a face at {SURE}+', wrong), ('named on edge', refused)):
            print('  ' + spread(name, group, key, 2 if key == 'lift' else 0))
    for name, group in ((f'read as a face at {SURE}+', wrong), (f'read as a face under {SURE}', unsure)):
        same = sum(r['named'] + 1 == r['shown'] for r in group)
        top = sum(r['named'] + 1 == r['top'] for r in group)
        print(f'{name}: the face read is the camera-facing one in {same} of {len(group)}, '
              f'the labelled top in {top}')
    print('named on edge, by view angle: ' + by(seen_rows, 'view', [0, 15, 30, 45, 90]))
    print(f'read as a face at {SURE}+, by view angle: ' + ', '.join(
        f'{lo}-{hi}: {sum(lo <= r["view"] < hi for r in wrong)}' for lo, hi in ((0, 15), (15, 30), (30, 45), (45, 90))))
    print('the peak, off the die\'s middle (sides): ' + spread('', seen_rows, 'off_middle', 2) +
          '; off its camera-facing face\'s centre: ' + spread('', seen_rows, 'off_face', 2))
    lab = [dict(r, named=r['at_label']) for r in rows]
    print(f'at the labelled centres (as training cut them): named on edge {sum(r["named"] == EDGE for r in lab)} '
          f'of {len(lab)}, a face at {SURE}+ {sum(r["named"] < 6 and r["p_label"] >= SURE for r in lab)}; '
          'named on edge by view angle: ' + by(lab, 'view', [0, 15, 30, 45, 90]))
    print('  by lean: ' + by(lab, 'lean', [25, 30, 35, 40, 46]) + '; by skew: ' + by(lab, 'skew', [0, 10, 20, 30, 90]))
    print('named on edge, by lean: ' + by(seen_rows, 'lean', [25, 30, 35, 40, 46]))
    print('named on edge, by tilt: ' + by(seen_rows, 'tilt', [25, 35, 45, 55, 65]))
    right = [dict(r, named=EDGE, p=r['p_label'], crop=r['crop_label'], wide=r['wide_label'])
             for r in rows if r['at_label'] == EDGE]
    sheet(a.sheet, sorted(wrong, key=lambda r: -r['p']), right)
    print(f'contact sheet: {a.sheet} (left: read as a face at {SURE}+ at the peak; right: named on edge at the '
          'labelled centre; '
          'each the 32x32 crop and 3 sides around; t tilt, v view angle, what was read and how sure)')


if __name__ == '__main__':
    main()
