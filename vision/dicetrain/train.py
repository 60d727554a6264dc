"""train makes the dice model: it draws training scenes, trains the centre
detector and the face classifier, and writes both to one small file.

    python3 -m dicetrain.train data|classifier|detector|edge|export [OUT.bin]

The file is what dicereader.js loads: "TDM1", a little-endian uint32 length,
a JSON header naming each layer (its kind, shape and where its weights
start), then every weight as float16. Batch norms are folded into the
convolutions before writing, so the browser runs convolutions and ReLUs only.
"""

import argparse
import json
import os
import struct
import time
from functools import partial
from multiprocessing import Pool

import numpy as np
import torch
import torch.nn as nn
import torch.nn.functional as F

from dicetrain.data import CELL, CROP, EDGE, examples

# make dice-model trains the two networks side by side, a core each;
# DICE_THREADS gives one step run alone the whole machine.
torch.set_num_threads(int(os.environ.get('DICE_THREADS') or max(1, (os.cpu_count() or 2) // 2)))


def conv(cin, cout, stride=1, dil=1):
    return nn.Sequential(nn.Conv2d(cin, cout, 3, stride, dil, dil, bias=False), nn.BatchNorm2d(cout), nn.ReLU())


class Detector(nn.Module):
    """Detector maps a 160x120 frame to a 40x30 grid: centre logit, log side,
    and with edge, a third map: the logit of a die on edge there."""

    def __init__(self, edge=False):
        super().__init__()
        self.body = nn.Sequential(conv(3, 8, 2), conv(8, 16, 2), conv(16, 16), conv(16, 16, dil=2),
                                  conv(16, 16, dil=4))
        self.head = nn.Conv2d(16, 3 if edge else 2, 1)

    def forward(self, x):
        return self.head(self.body(x))


class Classifier(nn.Module):
    """Classifier names a 32x32 crop (or 8*cells a side): faces 1-6, on edge,
    or no die (8 logits); with outputs=10, two more estimate the die's
    facing normal (tilt.py, a trial)."""

    def __init__(self, cells=4, outputs=8):
        super().__init__()
        self.body = nn.Sequential(conv(3, 12), nn.MaxPool2d(2), conv(12, 24), nn.MaxPool2d(2), conv(24, 32),
                                  nn.MaxPool2d(2))
        self.fc1 = nn.Linear(32 * cells * cells, 32)
        self.fc2 = nn.Linear(32, outputs)

    def forward(self, x):
        # Flattened as the browser holds it: rows, columns, then channels.
        x = self.body(x).permute(0, 2, 3, 1).flatten(1)
        return self.fc2(F.relu(self.fc1(F.dropout(x, 0.2, self.training))))


def normalize(x):
    """normalize is what the browser does too: each image to mean 0, sd 1."""
    x = x.float()
    m = x.mean(dim=(1, 2, 3), keepdim=True)
    s = x.std(dim=(1, 2, 3), keepdim=True) + 8
    return (x - m) / s


def probs(net, crops):
    """probs is what a classifier makes of crops (N x H x W x 3, RGB): each
    class's probability, N x 8 (and a 10-output one's normals, N x 2)."""
    with torch.no_grad():
        out = net(normalize(torch.from_numpy(np.stack(crops)).permute(0, 3, 1, 2)))
    p = torch.softmax(out[:, :8], 1).numpy()
    return (p, out[:, 8:].numpy()) if out.shape[1] > 8 else p


def augment_colors(x, gen):
    """augment_colors swaps colour channels, greys or inverts some crops."""
    n = x.shape[0]
    perm = torch.stack([torch.randperm(3, generator=gen) for _ in range(n)])
    x = torch.gather(x, 1, perm[:, :, None, None].expand_as(x))
    grey = torch.rand(n, generator=gen) < 0.2
    x[grey] = x[grey].mean(1, keepdim=True).expand(-1, 3, -1, -1)
    inv = torch.rand(n, generator=gen) < 0.25
    x[inv] = 255 - x[inv]
    gain = 0.6 + 0.8 * torch.rand(n, 1, 1, 1, generator=gen)
    return x * gain


def focal(logit, target):
    """focal is CenterNet's penalty-reduced focal loss on the heat map."""
    p = torch.sigmoid(logit).clamp(1e-4, 1 - 1e-4)
    pos = target.eq(1).float()
    neg = 1 - pos
    lp = -torch.log(p) * (1 - p) ** 2 * pos
    ln = -torch.log(1 - p) * p ** 2 * (1 - target) ** 4 * neg
    return (lp.sum() + ln.sum()) / pos.sum().clamp(min=1)


def draw(n, first, rest):
    t = time.time()
    with Pool(4) as pool:
        out = pool.map(partial(examples, rest=rest), range(first, first + n), chunksize=16)
    det = np.stack([o[0] for o in out])
    heat = np.stack([o[1] for o in out])
    size = np.stack([o[2] for o in out])
    mask = np.stack([o[3] for o in out])
    edge = np.stack([o[4] for o in out])
    xs = np.stack([c for o in out for c in o[5]])
    ys = np.array([y for o in out for y in o[6]])
    print(f'{n} scenes, {len(xs)} crops in {time.time() - t:.0f}s', flush=True)
    return dict(det=det, heat=heat, size=size, mask=mask, edge=edge, xs=xs, ys=ys)


def train_detector(net, det, heat, size, mask, epochs, edge=None, lr=3e-3):
    """train_detector trains the centres and sides, and the edge map when
    the net has one (edge: its targets)."""
    x = torch.from_numpy(det).permute(0, 3, 1, 2).contiguous()
    th, ts, tm = map(torch.from_numpy, (heat, size, mask))
    te = torch.from_numpy(edge) if edge is not None else None
    opt = torch.optim.AdamW(net.parameters(), lr, weight_decay=1e-4)
    steps = epochs * (len(x) // 32)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, lr, total_steps=steps)
    gen = torch.Generator().manual_seed(1)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(x), generator=gen)
        tot, t0 = 0.0, time.time()
        for b in range(len(x) // 32):
            i = order[b * 32:(b + 1) * 32]
            xb = normalize(augment_colors(x[i].float(), gen).clamp(0, 255))
            out = net(xb)
            lh = focal(out[:, 0], th[i])
            ls = (F.l1_loss(out[:, 1], ts[i], reduction='none') * tm[i]).sum() / tm[i].sum().clamp(min=1)
            loss = lh + ls
            if te is not None:
                loss = loss + focal(out[:, 2], te[i])
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        print(f'detector epoch {ep + 1}/{epochs} loss {tot / (len(x) // 32):.4f} ({time.time() - t0:.0f}s)', flush=True)


def train_classifier(net, xs, ys, epochs, prep=None):
    """train_classifier trains a classifier on crops xs (N x H x W x 3) and
    classes ys, the first twentieth held out; prep(x, i) makes the network's
    input from the crops x (colours augmented) at indices i (by default the
    browser's normalize; level.py adds its fourth plane)."""
    prep = prep or (lambda x, i: normalize(x))
    x = torch.from_numpy(xs).permute(0, 3, 1, 2).contiguous()
    y = torch.from_numpy(ys).long()
    nval = len(x) // 20
    opt = torch.optim.AdamW(net.parameters(), 3e-3, weight_decay=1e-4)
    bs = 128
    steps = epochs * ((len(x) - nval) // bs)
    sched = torch.optim.lr_scheduler.OneCycleLR(opt, 3e-3, total_steps=steps)
    gen = torch.Generator().manual_seed(2)
    for ep in range(epochs):
        net.train()
        order = torch.randperm(len(x) - nval, generator=gen) + nval
        tot, t0 = 0.0, time.time()
        for b in range((len(x) - nval) // bs):
            i = order[b * bs:(b + 1) * bs]
            xb = x[i].float()
            if torch.rand(1, generator=gen) < 0.5:
                xb = xb.flip(3)  # a mirrored face counts the same
            xb = prep(augment_colors(xb, gen).clamp(0, 255), i)
            loss = F.cross_entropy(net(xb), y[i], label_smoothing=0.02)
            opt.zero_grad()
            loss.backward()
            opt.step()
            sched.step()
            tot += loss.item()
        net.eval()
        with torch.no_grad():
            pred = net(prep(x[:nval], torch.arange(nval))).argmax(1)
        wrong = pred != y[:nval]
        cocked = y[:nval] == EDGE
        print(f'classifier epoch {ep + 1}/{epochs} loss {tot / ((len(x) - nval) // bs):.4f} '
              f'held-out error {wrong.float().mean().item():.4f}, cocked named on edge '
              f'{(~wrong[cocked]).float().mean().item():.3f} ({time.time() - t0:.0f}s)', flush=True)


def fold(seq):
    """fold turns conv+BN+ReLU blocks into (weight, bias, stride, dil) items."""
    out = []
    for m in seq:
        if isinstance(m, nn.MaxPool2d):
            out.append(('pool', None, None, 2, 1))
            continue
        c, bn = m[0], m[1]
        scale = bn.weight / torch.sqrt(bn.running_var + bn.eps)
        w = c.weight * scale[:, None, None, None]
        b = bn.bias - bn.running_mean * scale
        out.append(('conv', w, b, c.stride[0], c.dilation[0]))
    return out


def export(det, cls, path, thresholds='thresholds.json', extra=None):
    """export writes both networks to the model file (module doc), with
    the thresholds a check chose and any `extra` header fields."""
    layers, blobs, off = [], [], 0

    def put(name, kind, w, b, **kw):
        nonlocal off
        entry = {'net': name, 'kind': kind, **kw}
        if w is not None:
            # Convolutions as [out][ky][kx][in]; dense as [out][in].
            wa = w.detach().permute(0, 2, 3, 1).contiguous() if w.dim() == 4 else w.detach()
            ba = b.detach()
            entry.update(shape=list(wa.shape), w=off, b=off + wa.numel())
            blobs.extend([wa.flatten().numpy(), ba.numpy()])
            off += wa.numel() + ba.numel()
        layers.append(entry)

    for kind, w, b, stride, dil in fold(det.body):
        put('detector', kind, w, b, stride=stride, dil=dil, relu=True)
    put('detector', 'conv', det.head.weight, det.head.bias, stride=1, dil=1, relu=False)
    for kind, w, b, stride, dil in fold(cls.body):
        put('classifier', kind, w, b, stride=stride, dil=dil, relu=True)
    put('classifier', 'dense', cls.fc1.weight, cls.fc1.bias, relu=True)
    put('classifier', 'dense', cls.fc2.weight, cls.fc2.bias, relu=False)
    limits = {}
    if os.path.exists(os.path.join(BUILD, thresholds)):  # check.py's (or level.py's) choice
        with open(os.path.join(BUILD, thresholds)) as f:
            t = json.load(f)
        limits = {'seen': t['seen'], 'sure': t['sure']}
    header = json.dumps({'layers': layers, 'cell': CELL, 'crop': CROP, 'cropSize': 32, **limits,
                         'classes': ['1', '2', '3', '4', '5', '6', 'edge', 'none'], **(extra or {})}).encode()
    header += b' ' * (-len(header) % 2)  # float16 data starts on an even byte
    data = np.concatenate(blobs).astype('<f2').tobytes()
    with open(path, 'wb') as f:
        f.write(b'TDM1' + struct.pack('<I', len(header)) + header + data)
    print(f'wrote {path}: {off} weights, {os.path.getsize(path)} bytes')


PART = 1500  # scenes in a part of the training data


def part(first, scenes, rest=False):
    """part is the file of the training data's part that starts at scene
    `first`, for `scenes` scenes in all: its name says which scenes it has,
    so a short last part is never taken for a whole one, and how its
    cocked dice were drawn (scenes4: resting, with the edge map; scenes3d:
    floating, without)."""
    n = min(PART, scenes - first)
    return os.path.join(BUILD, f'{"scenes4" if rest else "scenes3d"}-{first}-{first + n}.npz')


def load(scenes, rest=False):
    """load joins the parts of the training data drawn for `scenes` scenes."""
    parts = [np.load(part(first, scenes, rest)) for first in range(0, scenes, PART)]
    return {k: np.concatenate([p[k] for p in parts]) for k in parts[0].files}


BUILD = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), 'build')


def trained(detector='detector.pt', classifier='classifier.pt'):
    """trained loads a detector and a classifier trained before (in BUILD;
    by default the last ones the steps saved), ready to read with; with
    classifier None, the detector alone (and None)."""
    state = torch.load(os.path.join(BUILD, detector))
    det = Detector(edge=state['head.weight'].shape[0] == 3)
    det.load_state_dict(state)
    det.eval()
    if classifier is None:
        return det, None
    state = torch.load(os.path.join(BUILD, classifier))
    cls = Classifier(outputs=state['fc2.weight'].shape[0])
    cls.load_state_dict(state)
    det.eval()
    cls.eval()
    return det, cls


def with_edge(base):
    """with_edge is a detector with an edge map that starts as the trained
    detector `base` (its edge map's weights start at zero)."""
    net = Detector(edge=True)
    state = dict(base.state_dict())
    w, b = net.head.weight.detach().clone(), net.head.bias.detach().clone()
    w[:2], b[:2] = state['head.weight'], state['head.bias']
    w[2], b[2] = 0, -4.6  # sure of no die on edge anywhere, to begin with
    state.update({'head.weight': w, 'head.bias': b})
    net.load_state_dict(state)
    return net


def main():
    """main runs one step: data, classifier, detector, edge (each cached in
    vision/build/) or export OUT. `make dice-model` runs them in order, the
    two trainings side by side. --rest draws and trains on the scenes with
    resting cocked dice; edge trains the detector saved (detector.pt) on
    with an edge map, on those scenes."""
    ap = argparse.ArgumentParser()
    ap.add_argument('step', choices=['data', 'classifier', 'detector', 'edge', 'export'])
    ap.add_argument('out', nargs='?')
    ap.add_argument('--scenes', type=int, default=4500)
    ap.add_argument('--epochs', type=int, default=3)
    ap.add_argument('--rest', action='store_true', help='cocked dice resting (scenes4 parts)')
    ap.add_argument('--save', help='the file in vision/build/ the training step writes')
    ap.add_argument('--detector', default='detector.pt')
    ap.add_argument('--classifier', default='classifier.pt')
    a = ap.parse_args()
    torch.manual_seed(0)
    os.makedirs(BUILD, exist_ok=True)
    if a.step == 'data':
        # Drawn in parts of PART scenes, so that more scenes add parts and
        # leave the parts drawn before as they are.
        for first in range(0, a.scenes, PART):
            path = part(first, a.scenes, a.rest)
            if os.path.exists(path):
                continue
            d = draw(min(PART, a.scenes - first), first, a.rest)
            print('crops per class (1-6, edge, none):', np.bincount(d['ys'], minlength=8).tolist(), flush=True)
            if not a.rest:
                del d['edge']  # as the scenes3d parts were written
            np.savez(path, **d)
    elif a.step == 'classifier':
        d = load(a.scenes, a.rest)
        net = Classifier()
        train_classifier(net, d['xs'], d['ys'], a.epochs)
        torch.save(net.state_dict(), os.path.join(BUILD, a.save or 'classifier.pt'))
    elif a.step == 'detector':  # with --rest, it learns the edge map too
        d = load(a.scenes, a.rest)
        net = Detector(edge=a.rest)
        train_detector(net, d['det'], d['heat'], d['size'], d['mask'], a.epochs, edge=d.get('edge'))
        torch.save(net.state_dict(), os.path.join(BUILD, a.save or 'detector.pt'))
    elif a.step == 'edge':
        d = load(a.scenes, rest=True)
        net = with_edge(trained(a.detector)[0])
        train_detector(net, d['det'], d['heat'], d['size'], d['mask'], a.epochs, edge=d['edge'], lr=1e-3)
        torch.save(net.state_dict(), os.path.join(BUILD, a.save or 'detector-edge.pt'))
    else:
        export(*trained(a.detector, a.classifier), a.out)


if __name__ == '__main__':
    main()
