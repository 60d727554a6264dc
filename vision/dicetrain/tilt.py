"""tilt is a trial (session 8, BENCHMARKS.md "A whole-throw cue for cocked
dice"): the classifier also estimates, for each die, the normal of the face
it shows most squarely to the camera (scenes.facing: relative to the die's
viewing ray, turned with the crop), and a throw of two dice or more is
refused when one die's normal, back in camera coordinates, leans more than
ANGLE degrees from the others' (spread): flat dice all lie on one table, a
cocked one does not. It did not pay: the estimated normals are 12-15
degrees off at the median, and the check's rule reads fewer held-out
throws with them than without, so the app has none of it.

    python3 -m dicetrain.tilt data [--scenes N]      normals of the scenes4 crops
    python3 -m dicetrain.tilt train [--epochs E]     fine-tunes classifier.pt into classifier-tilt.pt
    python3 -m dicetrain.tilt exact [--scenes N]     the cue with the labelled normals, held-out scenes
    python3 -m dicetrain.check --rest --classifier classifier-tilt.pt --save thresholds-tilt.json

The normals need the crops' turns, which come from the random stream after
the scene is rendered, so `data` draws the scenes again (scenes.scene and
data.examples draw the same scenes and crops with tilts on; `data` checks
every crop against the scenes4 part byte for byte) and keeps only the
normals, as tilts4-FIRST-LAST.npz beside the parts.
"""

import argparse
import os
import time
from multiprocessing import Pool

import numpy as np
import torch
import torch.nn.functional as F

from dicetrain.data import EDGE, NODIE, examples
from dicetrain.scenes import H, W, to_axis
from dicetrain.train import BUILD, PART, Classifier, augment_colors, normalize, part

# FOCAL is the focal length the reader assumes (pixels at 320x240): the mean of
# the training cameras' (solid.camera: half the horizontal field of view
# 25-38 degrees), as the phone's is not known.
FOCAL = float(np.mean((W / 2) / np.tan(np.radians(np.linspace(25, 38, 10001)))))


def normals_of(seed):
    """normals_of is one scene's crops (to check them) and their normals."""
    o = examples(seed, rest=True, tilts=True)
    return np.stack(o[5]), np.array(o[6]), np.array(o[7], np.float32)


def tilt_part(first, scenes):
    return os.path.join(BUILD, f'tilts4-{first}-{first + min(PART, scenes - first)}.npz')


def draw(scenes):
    for first in range(0, scenes, PART):
        path = tilt_part(first, scenes)
        if os.path.exists(path):
            continue
        t = time.time()
        d = np.load(part(first, scenes, rest=True))
        n = min(PART, scenes - first)
        with Pool(2) as pool:
            out = pool.map(normals_of, range(first, first + n), chunksize=8)
        xs = np.concatenate([o[0] for o in out])
        ys = np.concatenate([o[1] for o in out])
        assert (ys == d['ys']).all() and (xs == d['xs']).all(), f'{path}: the crops differ from the scenes4 part'
        np.savez(path, ts=np.concatenate([o[2] for o in out]))
        print(f'{path}: {len(ys)} crops, the same as the scenes4 part, {time.time() - t:.0f}s', flush=True)


def load(scenes):
    return np.concatenate([np.load(tilt_part(first, scenes))['ts'] for first in range(0, scenes, PART)])


def with_normal(base):
    """with_normal is a 10-output classifier starting as the trained 8-output
    one `base`: its two new rows (the normal's x, y) start fresh."""
    net = Classifier(outputs=10)
    state = dict(base.state_dict())
    w, b = net.fc2.weight.detach().clone(), net.fc2.bias.detach().clone()
    w[:8], b[:8] = state['fc2.weight'], state['fc2.bias']
    b[8:] = 0
    state.update({'fc2.weight': w, 'fc2.bias': b})
    net.load_state_dict(state)
    return net


def unit(xy):
    """unit is the normal (x, y, z) of a face turned to the camera: z < 0."""
    xy = np.asarray(xy, np.float64)
    r = np.hypot(xy[..., 0], xy[..., 1])
    xy = xy / np.maximum(r, 1)[..., None]  # at most a face seen edge on
    z = -np.sqrt(np.clip(1 - (xy ** 2).sum(-1), 0, 1))
    return np.concatenate([xy, z[..., None]], -1)


def angle(a, b):
    """angle is the angle in degrees between unit vectors a and b (...x3)."""
    return np.degrees(np.arccos(np.clip((a * b).sum(-1), -1, 1)))


def camera_normals(found, xy, focal=None):
    """camera_normals turns each die's normal (x, y) as the classifier gives
    it at a peak (x, y, ...) back into camera coordinates, along the ray
    through the peak with the focal length FOCAL."""
    focal = focal or FOCAL
    out = []
    for (px, py, *_), n in zip(found, unit(xy)):
        ray = np.array([(px - W / 2) / focal, (py - H / 2) / focal, 1.0])
        out.append(to_axis(ray / np.linalg.norm(ray)).T @ n)
    return np.array(out)


def spread(normals):
    """spread is, for each die of a throw, how far (degrees) its facing
    normal leans from the others': the median over the other dice of the
    angle between the two normals folded at 90 degrees (a flat die seen
    steeply shows a side most squarely, 90 degrees off the table's normal;
    folded, it agrees with the dice that show their tops). The median, not
    a mean normal, so that one cocked die does not move the others'
    reference. A one-die throw has no cue: 0."""
    if len(normals) < 2:
        return np.zeros(len(normals))
    th = angle(normals[:, None], normals[None])
    g = np.minimum(th, np.abs(90 - th))
    return np.array([np.median(np.delete(g[i], i)) for i in range(len(normals))])


def errors(found, xy, labels, normals):
    """errors is, for each die read at a peak within half a side of a
    labelled die, (on edge, the angle in degrees between its normal and the
    label's), both relative to their own rays."""
    out = []
    for (px, py, *_), n in zip(found, unit(xy)):
        for (lx, ly, ls, lf), t in zip(labels, normals):
            if np.hypot(px - lx, py - ly) < 0.5 * ls:
                out.append((lf == 0, float(angle(n, unit(t)))))
                break
    return out


def oracle(found, xy, labels, normals, noise, seed):
    """oracle is, for each die read at a peak, the labelled normal of the die
    within half a side of it (the estimate where none is), plus Gaussian
    noise of sd `noise` in x and y: check --oracle's measure of the cue."""
    rng = np.random.default_rng(seed)
    out = np.array(xy, np.float64)
    for k, (px, py, *_) in enumerate(found):
        for (lx, ly, ls, _), t in zip(labels, normals):
            if np.hypot(px - lx, py - ly) < 0.5 * ls:
                out[k] = t
                break
    return out + rng.normal(0, noise, out.shape)


def report(errs):
    """report prints the normals' error at the reader's peaks."""
    e = np.array(errs, dtype=float).reshape(-1, 2)
    for name, m in (('flat', e[:, 0] == 0), ('cocked', e[:, 0] == 1)):
        if m.any():
            print(f"normal's error at the reader's peaks, {name} dice ({m.sum()}): median {np.median(e[m, 1]):.1f}, "
                  f'90th percentile {np.percentile(e[m, 1], 90):.1f} degrees')


def measure(net, x, y, t, tag):
    """measure prints held-out crop error and the normal's angular error."""
    net.eval()
    with torch.no_grad():
        out = torch.cat([net(normalize(x[i:i + 2048])) for i in range(0, len(x), 2048)]).numpy()
    err = (out[:, :8].argmax(1) != y.numpy()).mean()
    msg = f'{tag}: held-out crop error {err:.4f}'
    if out.shape[1] > 8:
        e = angle(unit(out[:, 8:]), unit(t.numpy()))
        yy = y.numpy()
        for name, m in (('flat', yy < EDGE), ('cocked', yy == EDGE)):
            msg += f'; {name} normal error median {np.median(e[m]):.1f} 90th {np.percentile(e[m], 90):.1f} deg'
    print(msg, flush=True)
    return err


def train(scenes, epochs, lr, weight, start=None):
    parts = [np.load(part(first, scenes, rest=True)) for first in range(0, scenes, PART)]
    x = torch.from_numpy(np.concatenate([p['xs'] for p in parts])).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(np.concatenate([p['ys'] for p in parts])).long()
    t = torch.from_numpy(load(scenes))
    nval = len(x) // 20  # train.train_classifier's held-out crops
    base = Classifier()
    base.load_state_dict(torch.load(os.path.join(BUILD, 'classifier.pt')))
    measure(base, x[:nval].float(), y[:nval], t[:nval], 'classifier.pt')
    net = with_normal(base)
    if start:  # on from a 10-output classifier trained before
        net.load_state_dict(torch.load(os.path.join(BUILD, start)))
        measure(net, x[:nval].float(), y[:nval], t[:nval], start)
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    bs = 128
    steps = epochs * ((len(x) - nval) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    gen = torch.Generator().manual_seed(4)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(x) - nval, generator=gen) + nval
        tc, tn, t0 = 0.0, 0.0, time.time()
        for b in range((len(x) - nval) // bs):
            i = order[b * bs:(b + 1) * bs]
            xb, tb = x[i].float(), t[i].clone()
            if torch.rand(1, generator=gen) < 0.5:
                xb = xb.flip(3)  # mirrored: the normal's x turns over
                tb[:, 0] = -tb[:, 0]
            out = net(normalize(augment_colors(xb, gen).clamp(0, 255)))
            lc = F.cross_entropy(out[:, :8], y[i], label_smoothing=0.02)
            die = y[i] != NODIE
            ln = F.smooth_l1_loss(out[die, 8:], tb[die], beta=0.05) if die.any() else out.sum() * 0
            loss = lc + weight * ln
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tc += lc.item()
            tn += ln.item()
        nb = (len(x) - nval) // bs
        print(f'epoch {ep + 1}/{epochs} class loss {tc / nb:.4f} normal loss {tn / nb:.4f} ({time.time() - t0:.0f}s)',
              flush=True)
        measure(net, x[:nval].float(), y[:nval], t[:nval], f'epoch {ep + 1}')
    return net


def exact(n):
    """exact prints how far dice lean by their labelled normals (at their
    labels, with FOCAL) in held-out scenes of two dice or more, flat and
    cocked, and how many flat dice show a side most squarely."""
    from dicetrain.check import HELD_OUT
    from dicetrain.scenes import scene
    flat, cocked, side = [], [], 0
    for seed in range(HELD_OUT, HELD_OUT + n):
        _, labels, normals = scene(np.random.default_rng(seed), True, True)
        if len(labels) < 2:
            continue
        lean = spread(camera_normals(labels, normals))
        for (*_, f), t, g in zip(labels, normals, lean):
            (cocked if f == 0 else flat).append(g)
            side += f > 0 and np.hypot(*t) > np.sin(np.radians(45))
    flat, cocked = np.array(flat), np.array(cocked)
    print(f'{len(flat)} flat dice, {side} showing a side most squarely; lean (degrees) median, 90th, 99th: '
          f'{np.percentile(flat, [50, 90, 99]).round(1).tolist()}')
    print(f'{len(cocked)} cocked dice: lean 5th, 10th, 50th percentile: '
          f'{np.percentile(cocked, [5, 10, 50]).round(1).tolist()}')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('step', choices=['data', 'train', 'exact'])
    ap.add_argument('--scenes', type=int, default=9000)
    ap.add_argument('--epochs', type=int, default=3)
    ap.add_argument('--lr', type=float, default=1e-3)
    ap.add_argument('--weight', type=float, default=4.0, help="the normal's loss against the class loss")
    ap.add_argument('--save', default='classifier-tilt.pt')
    ap.add_argument('--start', help='a 10-output classifier in vision/build/ to go on from')
    a = ap.parse_args()
    torch.manual_seed(0)
    if a.step == 'data':
        draw(a.scenes)
    elif a.step == 'exact':
        exact(a.scenes)
    else:
        net = train(a.scenes, a.epochs, a.lr, a.weight, a.start)
        torch.save(net.state_dict(), os.path.join(BUILD, a.save))


if __name__ == '__main__':
    main()
