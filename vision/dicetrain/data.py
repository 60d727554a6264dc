"""data turns training scenes into the two networks' examples.

The detector sees the whole frame at 160x120 (the 320x240 frame halved by
2x2 means, as the browser does) and learns a heat map of die centres on a
40x30 grid with each die's side. The classifier sees 32x32 crops around a
centre, of side CROP times the die's side, sampled bilinearly exactly as
the browser samples them (dicereader.js), and names the face, a die on
edge, or no die at all. The detector's third map (the edge map) marks the
dice on edge only: a throw is refused when it peaks high anywhere, the
frame's own cue, where the classifier sees only a crop at a peak.
"""

import numpy as np

from dicetrain.scenes import H, W, scene

CROP = 1.5  # a crop's side, in die sides
CELL = 8  # a heat map cell, in 320x240 pixels
GW, GH = W // CELL, H // CELL
EDGE, NODIE = 6, 7  # classifier classes after the faces 1-6 (0-5)


def half(img):
    """half is the 2x2 mean of a 320x240 image: the detector's input."""
    f = img.astype(np.float32)
    return (f[0::2, 0::2] + f[1::2, 0::2] + f[0::2, 1::2] + f[1::2, 1::2]) / 4


def crop(img, cx, cy, side, angle=0.0, n=32):
    """crop samples an n x n patch of side `side` centred at (cx, cy) from a
    float32 image. Pixel centres are at integer coordinates + 0.5, as in the
    browser, and values are truncated to bytes as the browser does."""
    t = (np.arange(n, dtype=np.float32) + 0.5) / n - 0.5
    gx, gy = np.meshgrid(t * side, t * side)
    c, s = np.cos(angle), np.sin(angle)
    x = cx + c * gx - s * gy - 0.5
    y = cy + s * gx + c * gy - 0.5
    x0 = np.clip(np.floor(x).astype(int), 0, img.shape[1] - 1)
    y0 = np.clip(np.floor(y).astype(int), 0, img.shape[0] - 1)
    x1 = np.clip(x0 + 1, 0, img.shape[1] - 1)
    y1 = np.clip(y0 + 1, 0, img.shape[0] - 1)
    fx = np.clip(x - np.floor(x), 0, 1)[..., None]
    fy = np.clip(y - np.floor(y), 0, 1)[..., None]
    f = img
    top = f[y0, x0] * (1 - fx) + f[y0, x1] * fx
    bot = f[y1, x0] * (1 - fx) + f[y1, x1] * fx
    return (top * (1 - fy) + bot * fy).astype(np.uint8)


def heat_target(labels):
    """heat_target is the detector's wanted heat map and sizes on the grid,
    and its edge map: the same peaks, twice as wide, for dice on edge only."""
    heat = np.zeros((GH, GW), np.float32)
    size = np.zeros((GH, GW), np.float32)
    mask = np.zeros((GH, GW), np.float32)
    edge = np.zeros((GH, GW), np.float32)
    gy, gx = np.mgrid[0:GH, 0:GW].astype(np.float32)
    for x, y, s, f in labels:
        cx, cy = (x - 1) / CELL, (y - 1) / CELL  # cell j's centre is at 8j + 1
        sig = max(s / CELL / 4, 0.5)
        g = np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * sig ** 2))
        i, j = int(round(cy)), int(round(cx))
        if 0 <= i < GH and 0 <= j < GW:
            g[i, j] = 1
            heat = np.maximum(heat, g)
            near = (np.abs(gx - cx) <= 1.01) & (np.abs(gy - cy) <= 1.01)
            size[near] = np.log(s)
            mask[near] = 1
            if f == 0:
                # Where the detector peaks on a cocked die varies (on the
                # face turned to the camera), so the edge map's peak is wide.
                ge = np.exp(-((gx - cx) ** 2 + (gy - cy) ** 2) / (2 * (2 * sig) ** 2))
                ge[i, j] = 1
                edge = np.maximum(edge, ge)
    return heat, size, mask, edge


def no_dice(rng, labels, sizes):
    """no_dice picks where the classifier's "no die" crops are cut: twice
    the background, once half a die (a detector's near miss), each (x, y,
    side, turn) clear of every die; the same draws for every caller."""
    out = []
    for k in range(3):
        s = float(rng.choice(sizes)) * rng.uniform(0.8, 1.2)
        for _ in range(20):
            if k < 2 or not labels:
                x, y = rng.uniform(0, W), rng.uniform(0, H)
            else:
                lx, ly, ls, _ = labels[rng.integers(0, len(labels))]
                a = rng.uniform(0, 2 * np.pi)
                d = ls * rng.uniform(0.6, 0.85)
                x, y = lx + d * np.cos(a), ly + d * np.sin(a)
            if all(np.hypot(x - lx, y - ly) > 0.55 * ls for lx, ly, ls, _ in labels):
                out.append((x, y, s * CROP, rng.uniform(0, 2 * np.pi)))
                break
    return out


def examples(seed, crops_per_die=6, rest=False, tilts=False):
    """examples draws one scene (scenes.scene's rest); it returns the
    detector's examples and the crops; with tilts, also each crop's facing
    normal (scenes.facing) as the crop shows it, turned with the crop (NaN
    for no die). The scene and crops are the same either way."""
    rng = np.random.default_rng(seed)
    img, labels, *normals = scene(rng, rest, tilts)
    ts = []
    rgb = img[..., ::-1].astype(np.float32)
    det = half(rgb).astype(np.uint8)
    heat, size, mask, edge = heat_target(labels)
    xs, ys = [], []
    sizes = [s for *_, s, _ in labels] or [30.0]
    for k, (x, y, s, f) in enumerate(labels):
        for _ in range(crops_per_die):
            ex, ey = rng.normal(0, 0.09 * s, 2)
            side = s * CROP * rng.uniform(0.85, 1.15)
            a = rng.uniform(0, 2 * np.pi)
            xs.append(crop(rgb, x + ex, y + ey, side, a))
            ys.append(EDGE if f == 0 else f - 1)
            if normals:  # an image direction d shows in the crop turned by -a
                nx, ny = normals[0][k]
                ts.append((np.cos(a) * nx + np.sin(a) * ny, -np.sin(a) * nx + np.cos(a) * ny))
    for x, y, side, a in no_dice(rng, labels, sizes):
        xs.append(crop(rgb, x, y, side, a))
        ys.append(NODIE)
        ts.append((np.nan, np.nan))
    if tilts:
        return det, heat, size, mask, edge, xs, ys, ts
    return det, heat, size, mask, edge, xs, ys
