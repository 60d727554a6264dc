"""level makes the classifier the app reads faces with (session 9): the
phone knows which way is down (its motion sensor) and a bar top is level,
so each die is looked at as a camera held straight down over the table
would see it. A flat die's top face then shows square whatever the phone's
tilt, and a cocked die does not: the one cue no earlier classifier had
(BENCHMARKS.md, "The level view"; vision/README.md says how the phone
does the same, api/web/app/level.js).

Each crop is cut through the homography that turns the camera about its
centre until it looks along gravity (K R K^-1, with the focal length the
reader assumes, tilt.FOCAL, as the phone's is not known), turned so that
the direction away from the point straight below the camera is at the
crop's top (a flat die's sides then show at its foot), and the network is
told how oblique the ray to the die is, as a fourth input plane. The
detector is train.py's, unchanged.

    python3 -m dicetrain.level data [--scenes N]      level crops of the scenes4 scenes (level-*.npz)
    python3 -m dicetrain.level train [--epochs E]     the classifier on them: classifier-level.pt
    python3 -m dicetrain.level check                  the check's rule (check.py) on held-out scenes, level
                                                      crops: thresholds-level.json; with --model F, the
                                                      model file F as the app reads it (nothing written)
    python3 -m dicetrain.level export OUT             the detector and this classifier, as dice.bin

--wide trains and reads session 5's wider layers (channels 16-32-48, dense
48), which the app ships since session 10 (`make dice-model` passes it):
without it, the narrower layers of session 9's model; --channels
C1,C2,C3,DENSE, layers of another width (a trial). Data and train
--peaks N add N crops of each cocked die where the detector's peaks fall
(fewer throws read; a trial: BENCHMARKS.md, "The level view"). The sensor
is taken to be off by up to NOISE degrees (a phone's, and a bar top not
quite level); training and the check both draw that error.
"""

import argparse
import json
import os
import time
from functools import partial
from multiprocessing import Pool

import numpy as np
import torch


from dicetrain import check, frombin
from dicetrain.data import CROP, EDGE, NODIE, no_dice
from dicetrain.scenes import H, W, scene, to_axis
from dicetrain.tilt import FOCAL
from dicetrain.train import BUILD, PART, Classifier, conv, export, normalize, train_classifier, trained

NOISE = 3.0  # degrees: how far the gravity the reader is given may be off
PLANE = 2.0  # the fourth plane's value: PLANE x the ray's obliqueness in radians


def gravity(cam, rng):
    """gravity is the table's up normal in camera coordinates as the phone's
    sensor gives it: the true one turned by up to NOISE degrees."""
    up = cam['rot'] @ np.array([0.0, 0.0, 1.0])
    e = rng.normal(0, 1, 3)
    e -= e.dot(up) * up
    e /= np.linalg.norm(e) + 1e-12
    a = np.radians(rng.uniform(0, NOISE))
    return up * np.cos(a) + e * np.sin(a)


def homography(up, focal=FOCAL):
    """homography maps the frame's pixels to the level view's: the camera
    turned about its centre by the least rotation that makes it look along
    -up (straight down on the table)."""
    k = np.array([[focal, 0, W / 2], [0, focal, H / 2], [0, 0, 1.0]])
    down = -np.asarray(up, np.float64)
    return k @ to_axis(down / np.linalg.norm(down)) @ np.linalg.inv(k)


def to_level(hm, x, y):
    p = hm @ np.array([x, y, 1.0])
    return p[0] / p[2], p[1] / p[2]


def scale_at(hm, x, y, e=0.5):
    """scale_at is how much the level view enlarges lengths near (x, y)."""
    a = np.array(to_level(hm, x + e, y)) - np.array(to_level(hm, x - e, y))
    b = np.array(to_level(hm, x, y + e)) - np.array(to_level(hm, x, y - e))
    return float(np.sqrt(abs(a[0] * b[1] - a[1] * b[0]))) / (2 * e)


def canon(hm, x, y, focal=FOCAL):
    """canon is how the level view sees (x, y): the crop angle that puts
    the direction away from the point straight below the camera at the
    crop's top (where a flat die's sides show), and how oblique the ray to
    it is (radians from straight down)."""
    lx, ly = to_level(hm, x, y)
    rx, ry = lx - W / 2, ly - H / 2
    return float(np.arctan2(rx, -ry)), float(np.arctan(np.hypot(rx, ry) / focal))


def crop(img, hm, x, y, side, angle=0.0, n=32):
    """crop is data.crop in the level view: an n x n patch of side `side`
    (frame pixels at (x, y)) centred on (x, y)'s level point, each sample
    taken back through the homography to the frame and read bilinearly,
    with the frame's pixel centres at integer + 0.5."""
    lx, ly = to_level(hm, x, y)
    s = side * scale_at(hm, x, y)
    t = (np.arange(n, dtype=np.float64) + 0.5) / n - 0.5
    gx, gy = np.meshgrid(t * s, t * s)
    c, si = np.cos(angle), np.sin(angle)
    px, py = lx + c * gx - si * gy, ly + si * gx + c * gy
    inv = np.linalg.inv(hm)
    q = inv @ np.stack([px.ravel(), py.ravel(), np.ones(px.size)])
    fx_, fy_ = (q[0] / q[2]).reshape(n, n) - 0.5, (q[1] / q[2]).reshape(n, n) - 0.5
    x0 = np.clip(np.floor(fx_).astype(int), 0, img.shape[1] - 1)
    y0 = np.clip(np.floor(fy_).astype(int), 0, img.shape[0] - 1)
    x1 = np.clip(x0 + 1, 0, img.shape[1] - 1)
    y1 = np.clip(y0 + 1, 0, img.shape[0] - 1)
    wx = np.clip(fx_ - np.floor(fx_), 0, 1)[..., None].astype(np.float32)
    wy = np.clip(fy_ - np.floor(fy_), 0, 1)[..., None].astype(np.float32)
    top = img[y0, x0] * (1 - wx) + img[y0, x1] * wx
    bot = img[y1, x0] * (1 - wx) + img[y1, x1] * wx
    return (top * (1 - wy) + bot * wy).astype(np.uint8)


def examples(seed, crops_per_die=6, peaks=0):
    """examples is data.examples for the classifier, cut in the level view
    of a resting-cocked-dice scene (the scenes4 parts' scenes); the sensor's
    error comes from a stream of its own, so the scene is the same. With
    peaks, each cocked die is also cut that many more times where the
    detector's peaks on cocked dice fall (off its middle by |N(0, 0.3)| of
    a side, up to 0.6, 0.95 to 1.45 times its side: BENCHMARKS.md, "A wider
    classifier, tried"), from a stream of their own, after the rest."""
    rng = np.random.default_rng(seed)
    img, labels, cam = scene(rng, rest=True, camera=True)
    hm = homography(gravity(cam, np.random.default_rng([seed, 7])))
    rgb = img[..., ::-1].astype(np.float32)
    xs, ys = [], []
    sizes = [s for *_, s, _ in labels] or [30.0]
    obs = []
    turn = np.random.default_rng([seed, 8])  # the crops' turns: a stream of their own
    for x, y, s, f in labels:
        for _ in range(crops_per_die):
            ex, ey = rng.normal(0, 0.09 * s, 2)
            side = s * CROP * rng.uniform(0.85, 1.15)
            rng.uniform(0, 2 * np.pi)  # the turn data.examples draws, kept so the stream stays the same
            a, ob = canon(hm, x + ex, y + ey)
            xs.append(crop(rgb, hm, x + ex, y + ey, side, a + turn.normal(0, 0.1)))
            ys.append(EDGE if f == 0 else f - 1)
            obs.append(ob)
    for x, y, side, _ in no_dice(rng, labels, sizes):  # its turn is drawn, and the level view's taken
        a, ob = canon(hm, x, y)
        xs.append(crop(rgb, hm, x, y, side, a + turn.normal(0, 0.1)))
        ys.append(NODIE)
        obs.append(ob)
    off = np.random.default_rng([seed, 9])
    for x, y, s, f in labels:
        for _ in range(peaks if f == 0 else 0):
            d, t = min(abs(off.normal(0, 0.3)), 0.6) * s, off.uniform(0, 2 * np.pi)
            px, py = x + d * np.cos(t), y + d * np.sin(t)
            a, ob = canon(hm, px, py)
            xs.append(crop(rgb, hm, px, py, s * CROP * off.uniform(0.95, 1.45), a + off.normal(0, 0.1)))
            ys.append(EDGE)
            obs.append(ob)
    return xs, ys, obs


def level_part(first, scenes, peaks=0):
    name = 'level' if not peaks else f'level-peaks{peaks}'
    return os.path.join(BUILD, f'{name}-{first}-{first + min(PART, scenes - first)}.npz')


def draw(scenes, procs, peaks=0):
    for first in range(0, scenes, PART):
        path = level_part(first, scenes, peaks)
        if os.path.exists(path):
            continue
        t = time.time()
        n = min(PART, scenes - first)
        with Pool(procs) as pool:
            out = pool.map(partial(examples, peaks=peaks), range(first, first + n), chunksize=16)
        xs = np.stack([c for o in out for c in o[0]])
        ys = np.array([y for o in out for y in o[1]])
        obs = np.array([v for o in out for v in o[2]], np.float32)
        np.savez(path, xs=xs, ys=ys, obs=obs)
        print(f'{path}: {n} scenes, {len(xs)} crops in {time.time() - t:.0f}s', flush=True)


def held_out(seed, flat=False):
    """held_out is one held-out scene as the check reads it: with flat, as a
    phone with no motion sensor reads it (taken to be held flat)."""
    img, labels, normals, cam = scene(np.random.default_rng(seed), True, tilts=True, camera=True)
    up = (0.0, 0.0, -1.0) if flat else gravity(cam, np.random.default_rng([seed, 7]))
    return img[..., ::-1].astype(np.float32), labels, normals, homography(up)


WIDE = (16, 32, 48, 48)  # session 5's wider layers: three convolutions' channels and the dense layer's


def classifier(wide=False, channels=None):
    """classifier is train.Classifier with a fourth input plane: how
    oblique the ray to the die is (canon), the same value everywhere; wide,
    with WIDE's layers (the shipped model), or with channels (c1, c2, c3,
    dense) of its own (a trial)."""
    net = Classifier()
    if wide or channels:
        c1, c2, c3, dense = channels or WIDE
        net.body = torch.nn.Sequential(conv(4, c1), torch.nn.MaxPool2d(2), conv(c1, c2), torch.nn.MaxPool2d(2),
                                       conv(c2, c3), torch.nn.MaxPool2d(2))
        net.fc1 = torch.nn.Linear(c3 * 16, dense)
        net.fc2 = torch.nn.Linear(dense, 8)
    else:
        net.body[0][0] = torch.nn.Conv2d(4, 12, 3, 1, 1, bias=False)
    return net


def inputs(x, obs):
    """inputs are the network's input: the crops normalized as the browser
    does, and the obliqueness plane (PLANE x radians)."""
    x = normalize(x)
    plane = (PLANE * torch.as_tensor(obs, dtype=torch.float32))[:, None, None, None].expand(-1, 1, *x.shape[2:])
    return torch.cat([x, plane], 1)


def level_crops(cls, scene, found):
    """level_crops is what cls makes of the dice found in a held-out scene
    (held_out), each cut in the level view: check.readings' name."""
    img, hm = scene[0], scene[3]
    cuts = [canon(hm, x, y) for x, y, *_ in found]
    xs = [crop(img, hm, x, y, size * CROP, a) for (x, y, size, _), (a, _) in zip(found, cuts)]
    with torch.no_grad():
        logits = cls(inputs(torch.from_numpy(np.stack(xs)).permute(0, 3, 1, 2), [ob for _, ob in cuts]))
    return torch.softmax(logits, 1).numpy()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('step', choices=['data', 'train', 'check', 'export'])
    ap.add_argument('out', nargs='?')
    ap.add_argument('--scenes', type=int, default=9000)
    ap.add_argument('--epochs', type=int, default=8)
    ap.add_argument('--procs', type=int, default=2)
    ap.add_argument('--classifier', help='the checkpoint in build/: classifier-level-wide.pt with --wide, '
                    'classifier-level.pt without')
    ap.add_argument('--held-out', type=int, default=400)
    ap.add_argument('--peaks', type=int, default=0, help='more crops of each cocked die where peaks fall (a trial)')
    ap.add_argument('--flat', action='store_true', help='check as a phone with no motion sensor reads')
    ap.add_argument('--wide', action='store_true', help='channels 16-32-48, dense 48 (the shipped model)')
    ap.add_argument('--channels', help='C1,C2,C3,DENSE: layers of this width instead (a trial)')
    ap.add_argument('--detector-from', help='check, export: the detector of this model file, not build/detector.pt')
    ap.add_argument('--model', help='check: read with this model file (dice.bin) instead of the checkpoints')
    a = ap.parse_args()
    a.channels = tuple(int(c) for c in a.channels.split(',')) if a.channels else None
    a.classifier = a.classifier or ('classifier-level-' + '-'.join(map(str, a.channels)) + '.pt' if a.channels else
                                    'classifier-level-wide.pt' if a.wide else 'classifier-level.pt')
    torch.manual_seed(0)
    if a.step == 'data':
        draw(a.scenes, a.procs, a.peaks)
    elif a.step == 'train':
        parts = [np.load(level_part(first, a.scenes, a.peaks)) for first in range(0, a.scenes, PART)]
        xs, ys, obs = (np.concatenate([p[k] for p in parts]) for k in ('xs', 'ys', 'obs'))
        net = classifier(a.wide, a.channels)
        planes = torch.from_numpy(obs)
        train_classifier(net, xs, ys, a.epochs, lambda x, i: inputs(x, planes[i]))
        torch.save(net.state_dict(), os.path.join(BUILD, a.classifier))
    elif a.step == 'export':
        det = detector(a)
        cls = classifier(a.wide, a.channels)
        cls.load_state_dict(torch.load(os.path.join(BUILD, a.classifier)))
        cls.eval()
        export(det, cls, a.out, 'thresholds-level.json', {'level': {'focal': FOCAL, 'plane': PLANE}})
    else:
        check_level(a)


def detector(a):
    """detector is the trained detector: build/detector.pt, or with
    --detector-from, the one in that model file (dice.bin)."""
    return frombin.load(a.detector_from)[0] if a.detector_from else trained(classifier=None)[0]


def check_level(a):
    """check_level reads the held-out scenes as the app does, prints what
    each SURE reads (whole throws, and dice filled by a partial reading)
    and, unless reading a model file (--model) or as a phone with no
    sensor, writes the thresholds the check's rule picks."""
    if a.model:
        det, cls, head = frombin.load(a.model)
    else:
        det, cls, head = detector(a), classifier(a.wide, a.channels), {}
        cls.load_state_dict(torch.load(os.path.join(BUILD, a.classifier)))
        cls.eval()
    with Pool(a.procs) as pool:
        scenes = pool.map(partial(held_out, flat=a.flat), range(check.HELD_OUT, check.HELD_OUT + a.held_out), chunksize=8)
    counted, reads, _ = check.readings(det, cls, None, scenes, name=partial(level_crops, cls))
    seen = head.get('seen') or max(check.SEENS, key=lambda s: (counted[s], -abs(s - 0.4)))
    sure, _ = check.choose(reads[seen], [1.0])
    for q in check.SURES + [0.99]:  # 0.99 is printed, never chosen
        got = [(r[0], r[2]) for r in reads[seen] if r[1] >= q]
        print(f'SEEN {seen}, SURE {q}: {len(got)} throws read, {sum(ok for ok, _ in got)} right, '
              f'{sum(c for _, c in got)} wrong for a cocked die read as a face', flush=True)
        filled = [(right, r[2]) for r in reads[seen] for sure_q, right in r[7] if sure_q >= q]
        wrong = [cocked for right, cocked in filled if not right]
        print(f'SEEN {seen}, SURE {q}, partial: {len(filled)} dice filled of {sum(len(sc[1]) for sc in scenes)}, '
              f'{len(filled) - len(wrong)} right, {len(wrong)} wrong ({sum(wrong)} in a throw with a cocked die)', flush=True)
    print(f'dice counted right at SEEN {seen}: {counted[seen]} of {len(scenes)}; the rule picks SURE {sure}'
          + (f'; the model file has SURE {head.get("sure")}' if a.model else ''))
    if not a.flat and not a.model:  # the sensor's reading is what the thresholds are for
        with open(os.path.join(BUILD, 'thresholds-level.json'), 'w') as f:
            json.dump({'seen': seen, 'sure': sure, 'scenes': len(scenes)}, f)


if __name__ == '__main__':
    main()
