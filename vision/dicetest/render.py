"""render draws the TEST throws by ray tracing, independently of training.

Nothing here is shared with dicetrain/: dice are rounded boxes (a signed
distance field) ray-marched through a pinhole camera held at an angle over
a table, their pips concave dimples on the faces, lit by one or two bar
lamps with soft shadows and plastic highlights. Tables and dice styles are
of other kinds than the training scenes (varnished ring-grain wood, brushed
steel, marble, baize, cork, granite; ivory, pearl, translucent red, green,
blue, black, yellow, purple dice), and the frame is 480x360 (4:3, as a phone's
camera gives it), with defocus, motion blur, sensor noise and JPEG.

truth per die: its top face's centre in the 320x240 frame the reader
works on, its side in pixels there, and its face (0 for a die on edge).
"""

import cv2
import numpy as np

cv2.setNumThreads(1)  # throws are drawn in parallel processes

W, H = 480, 360  # the camera's frame; the reader takes it down to 320x240
TO_FRAME = 320 / W

# Pip centres per face, in grid steps (a different layout table from
# training's: the 6 runs along the other axis, which a turn makes the same).
PIPS = {
    1: [(0, 0)],
    2: [(1, -1), (-1, 1)],
    3: [(1, -1), (0, 0), (-1, 1)],
    4: [(-1, -1), (-1, 1), (1, -1), (1, 1)],
    5: [(0, 0), (-1, -1), (-1, 1), (1, -1), (1, 1)],
    6: [(-1, -1), (0, -1), (1, -1), (-1, 1), (0, 1), (1, 1)],
}

STYLES = [  # name, body RGB, pip RGB, translucency
    ('ivory', (236, 228, 205), (25, 25, 30), 0.0),
    ('white', (245, 245, 245), (10, 10, 10), 0.0),
    ('pearl', (230, 235, 240), (40, 30, 90), 0.0),
    ('red', (200, 20, 25), (250, 250, 250), 0.35),
    ('darkred', (140, 10, 15), (240, 240, 230), 0.2),
    ('green', (20, 130, 60), (250, 250, 250), 0.2),
    ('blue', (30, 60, 170), (250, 250, 250), 0.2),
    ('black', (25, 25, 28), (240, 240, 240), 0.0),
    ('yellow', (235, 200, 40), (20, 20, 20), 0.1),
    ('purple', (110, 40, 140), (250, 230, 120), 0.2),
]


def rot_z(a):
    c, s = np.cos(a), np.sin(a)
    return np.array([[c, -s, 0], [s, c, 0], [0, 0, 1.0]])


def rot_axis(axis, a):
    axis = axis / np.linalg.norm(axis)
    k = np.array([[0, -axis[2], axis[1]], [axis[2], 0, -axis[0]], [-axis[1], axis[0], 0]])
    return np.eye(3) + np.sin(a) * k + (1 - np.cos(a)) * k @ k


class Die:
    """Die is a unit die: where it is, how it lies, its face values, style."""

    def __init__(self, pos, r, top, style, rng, edge=False):
        self.pos, self.r, self.top, self.edge = np.asarray(pos, float), r, top, edge
        self.rad = rng.uniform(0.08, 0.16)  # corner rounding
        self.step = rng.uniform(0.24, 0.3)
        self.pip = rng.uniform(0.075, 0.11)
        self.name, body, pip, self.glow = style
        self.body = np.array(body, float) / 255 * rng.uniform(0.9, 1.05)
        self.pipc = np.array(pip, float) / 255
        others = [f for f in range(1, 7) if f not in (top, 7 - top)]
        a = int(rng.choice(others))
        b = int(rng.choice([f for f in others if f not in (a, 7 - a)]))
        # local axes +x -x +y -y +z -z
        self.values = {(0, 1): a, (0, -1): 7 - a, (1, 1): b, (1, -1): 7 - b, (2, 1): top, (2, -1): 7 - top}
        self.turn = rng.integers(0, 4)

    def sdf(self, p):
        """sdf of local points p (..., 3)."""
        q = np.abs(p) - (0.5 - self.rad)
        return np.linalg.norm(np.maximum(q, 0), axis=-1) + np.minimum(q.max(axis=-1), 0) - self.rad

    def local(self, x):
        return (x - self.pos) @ self.r  # world to local: r^T (x - pos)

    def shade_surface(self, p):
        """shade_surface is the colour at local surface points, and a pip mask."""
        ax = np.abs(p).argmax(axis=-1)
        sign = np.where(np.take_along_axis(p, ax[..., None], -1)[..., 0] > 0, 1, -1)
        uv_axes = {0: (1, 2), 1: (0, 2), 2: (0, 1)}
        u = np.zeros(p.shape[:-1])
        v = np.zeros(p.shape[:-1])
        near = np.full(p.shape[:-1], 9.0)
        for a in range(3):
            for s in (1, -1):
                m = (ax == a) & (sign == s)
                if not m.any():
                    continue
                i, j = uv_axes[a]
                uu, vv = p[m][:, i], p[m][:, j]
                for _ in range(self.turn):
                    uu, vv = -vv, uu
                u[m], v[m] = uu, vv
                d = np.full(uu.shape, 9.0)
                for gx, gy in PIPS[self.values[(a, s)]]:
                    d = np.minimum(d, np.hypot(uu - gx * self.step, vv - gy * self.step))
                near[m] = d
        inpip = near < self.pip
        # a dimple: darker towards its far wall
        depth = np.clip(1 - near / self.pip, 0, 1)
        return inpip, depth


def table_texture(kind, xy, rng_state):
    """table_texture colours table points (N, 2) in die units."""
    rs = np.random.default_rng(rng_state)
    x, y = xy[:, 0], xy[:, 1]

    def turb(sx, sy, octaves=4):
        t = np.zeros_like(x)
        for o in range(octaves):
            f = 2 ** o
            ph = rs.uniform(0, 2 * np.pi, 4)
            t += (np.sin(x * sx * f + ph[0] + np.sin(y * sy * f + ph[1])) * np.sin(y * sy * f * 1.3 + ph[2] + np.cos(x * sx * f * 0.7 + ph[3]))) / f
        return t

    if kind == 'ringwood':
        cx, cy = rs.uniform(-60, 60, 2)
        rr = np.hypot((x - cx) * 0.15, y - cy) + 0.6 * turb(0.3, 0.3)
        g = 0.5 + 0.5 * np.sin(rr * rs.uniform(2, 5))
        base = np.array([rs.uniform(0.25, 0.45), rs.uniform(0.12, 0.22), rs.uniform(0.04, 0.1)])
        return base * (0.7 + 0.4 * g[:, None]), 0.5
    if kind == 'steel':
        streak = np.sin(y * 40 + 3 * turb(0.1, 2.0)) * 0.5 + 0.5
        v = rs.uniform(0.45, 0.65) + 0.08 * streak
        return np.stack([v, v, v * 1.02], -1), 0.8
    if kind == 'marble':
        m = np.abs(np.sin(x * 0.4 + y * 0.2 + 3 * turb(0.25, 0.25)))
        v = 0.9 - 0.45 * (1 - m) ** 6
        tint = np.array([1.0, 0.97, 0.93]) if rs.random() < 0.5 else np.array([0.35, 0.37, 0.4])
        return v[:, None] * tint, 0.4
    if kind == 'baize':
        fib = rs.normal(0, 1, x.shape) * 0.05 + 0.05 * turb(1.5, 1.5)
        base = np.array([0.05, rs.uniform(0.3, 0.45), rs.uniform(0.12, 0.2)])
        return base * (1 + fib[:, None]), 0.0
    if kind == 'cork':
        sp = (turb(3, 3, 3) > 0.6).astype(float) * 0.25 + rs.normal(0, 0.05, x.shape)
        base = np.array([0.62, 0.45, 0.28])
        return base * (1 - sp[:, None]), 0.05
    # granite
    fl = (rs.random(x.shape) < 0.05) * rs.uniform(0.3, 0.8, x.shape)
    v = 0.08 + fl + 0.03 * turb(2, 2, 2)
    return np.stack([v, v, v], -1), 0.6


TABLES = ['ringwood', 'steel', 'marble', 'baize', 'cork', 'granite']


def place(rng, n):
    """place lays n dice on the table: positions, yaws, some touching."""
    out = []
    spread = rng.uniform(1.8, 3.2)
    for _ in range(500):
        if len(out) == n:
            break
        if out and rng.random() < 0.4:
            ox, oy, oyaw = out[rng.integers(0, len(out))]
            yaw = oyaw + rng.uniform(-0.1, 0.1)
            ang = oyaw + rng.integers(0, 4) * np.pi / 2
            d, slide = rng.uniform(1.0, 1.05), rng.uniform(-0.6, 0.6)
            x = ox + d * np.cos(ang) - slide * np.sin(ang)
            y = oy + d * np.sin(ang) + slide * np.cos(ang)
        else:
            x, y, yaw = rng.uniform(-spread, spread), rng.uniform(-spread * 0.75, spread * 0.75), rng.uniform(0, 2 * np.pi)
        if all(np.hypot(x - a, y - b) > 1.0 and not squares_overlap((x, y, yaw), (a, b, c)) for a, b, c in out):
            out.append((x, y, yaw))
    return out


def squares_overlap(a, b):
    pa = cv2.boxPoints(((a[0] * 100, a[1] * 100), (99, 99), np.degrees(a[2]))).astype(np.float32)
    pb = cv2.boxPoints(((b[0] * 100, b[1] * 100), (99, 99), np.degrees(b[2]))).astype(np.float32)
    return cv2.intersectConvexConvex(pa, pb)[0] > 1


class Camera:
    def __init__(self, target, dist, tilt, azim, roll, fpx):
        self.c = target + dist * np.array([np.sin(tilt) * np.cos(azim), np.sin(tilt) * np.sin(azim), np.cos(tilt)])
        self.f = (target - self.c) / np.linalg.norm(target - self.c)
        hint = np.array([np.cos(roll), np.sin(roll), 0.0])
        self.r = np.cross(self.f, hint)
        self.r /= np.linalg.norm(self.r)
        self.u = np.cross(self.r, self.f)
        self.fpx = fpx

    def rays(self, xs, ys):
        d = self.f[None] * self.fpx + self.r[None] * (xs - W / 2)[:, None] - self.u[None] * (ys - H / 2)[:, None]
        return d / np.linalg.norm(d, axis=1, keepdims=True)

    def project(self, p):
        d = p - self.c
        z = d @ self.f
        return np.array([self.fpx * (d @ self.r) / z + W / 2, -self.fpx * (d @ self.u) / z + H / 2])


def march(die, o, d, steps=64):
    """march finds where world rays o + t d first meet a die (t or inf)."""
    lo, ld = die.local(o), d @ die.r
    # start at the bounding sphere
    oc = -lo
    b = (oc * ld).sum(-1)
    disc = b ** 2 - ((lo ** 2).sum(-1) - 0.75)
    t = np.where(disc > 0, np.maximum(b - np.sqrt(np.maximum(disc, 0)), 0), np.inf)
    alive = np.isfinite(t)
    hit = np.zeros(t.shape, bool)
    for _ in range(steps):
        if not alive.any():
            break
        idx = np.nonzero(alive)[0]
        dist = die.sdf(lo[idx] + ld[idx] * t[idx, None])
        t[idx] += dist
        done = dist < 1e-3
        hit[idx[done]] = True
        alive[idx[done]] = False
        far = t[idx] > b[idx] + 1.0
        alive[idx[far]] = False
    return np.where(hit, t, np.inf)


def soft_shadow(dice, p, ldir, k=10.0):
    """soft_shadow is how much light reaches world points p from ldir."""
    light = np.ones(len(p))
    for die in dice:
        lo, ld = die.local(p + ldir[None] * 0.02), np.broadcast_to(ldir @ die.r, p.shape)
        near = np.linalg.norm(lo, axis=1) < 4
        if not near.any():
            continue
        idx = np.nonzero(near)[0]
        t = np.full(len(idx), 0.01)
        res = np.ones(len(idx))
        for _ in range(32):
            h = die.sdf(lo[idx] + ld[idx] * t[:, None])
            res = np.minimum(res, np.clip(k * h / t, 0, 1))
            t += np.clip(h, 0.02, 0.3)
        light[idx] = np.minimum(light[idx], res)
    return light


def render(rng, n, edge=False, blur=0.0, motion=0):
    """render ray-traces one throw; it returns a 640x480 RGB uint8 and truth."""
    spots = place(rng, n)
    same = rng.random() < 0.6
    st = STYLES[rng.integers(0, len(STYLES))]
    dice = []
    for i, (x, y, yaw) in enumerate(spots):
        style = st if same else STYLES[rng.integers(0, len(STYLES))]
        top = int(rng.integers(1, 7))
        r = rot_z(yaw)
        z = 0.5
        cocked = edge and i == 0
        if cocked:
            axis = np.array([np.cos(yaw + rng.uniform(-0.4, 0.4)), np.sin(yaw), 0.0])
            r = rot_axis(axis, rng.uniform(0.45, 0.8) * rng.choice([-1, 1])) @ r
            corners = np.array([[sx, sy, sz] for sx in (-.5, .5) for sy in (-.5, .5) for sz in (-.5, .5)]) @ r.T
            z = -corners[:, 2].min()
        else:
            r = rot_axis(np.array([1.0, 0, 0]), rng.uniform(-0.03, 0.03)) @ r
        dice.append(Die((x, y, z), r, top, style, rng, edge=cocked))
    xs = np.array([d.pos[0] for d in dice])
    ys = np.array([d.pos[1] for d in dice])
    target = np.array([xs.mean(), ys.mean(), 0.0])
    extent = max(np.ptp(xs), np.ptp(ys) * 4 / 3, 1.0) + 1.6
    tilt = rng.uniform(0, 0.5)
    dist = rng.uniform(12, 20)
    fpx = W * dist / extent / rng.uniform(1.1, 1.9)
    fpx = np.clip(fpx, 18 / TO_FRAME * dist, 48 / TO_FRAME * dist)  # dice of 18-48 px in the frame read
    cam = Camera(target, dist, tilt, rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi), fpx)
    for d in dice:
        p = cam.project(d.pos)
        if not (30 < p[0] < W - 30 and 30 < p[1] < H - 30):
            return None
    ys_, xs_ = np.mgrid[0:H, 0:W].reshape(2, -1).astype(float) + 0.5
    dirs = cam.rays(xs_, ys_)
    o = np.broadcast_to(cam.c, dirs.shape)
    tt = -cam.c[2] / dirs[:, 2]
    tbest = np.where(tt > 0, tt, np.inf)
    owner = np.full(len(dirs), -1)
    for i, d in enumerate(dice):
        pc = cam.project(d.pos)
        rad = 1.0 * fpx / np.linalg.norm(d.pos - cam.c)
        box = (np.abs(xs_ - pc[0]) < rad) & (np.abs(ys_ - pc[1]) < rad)
        idx = np.nonzero(box)[0]
        t = march(d, o[idx], dirs[idx])
        closer = t < tbest[idx]
        tbest[idx[closer]] = t[closer]
        owner[idx[closer]] = i
    p = cam.c[None] + dirs * tbest[:, None]
    lamps = []
    for _ in range(rng.integers(1, 3)):
        lp = np.array([rng.uniform(-8, 8), rng.uniform(-8, 8), rng.uniform(10, 25)]) + target
        lamps.append((lp, np.array([1.0, rng.uniform(0.8, 0.95), rng.uniform(0.55, 0.85)]) * rng.uniform(0.6, 1.0)))
    ambient = rng.uniform(0.15, 0.35)
    col = np.zeros((len(dirs), 3))
    normal = np.zeros((len(dirs), 3))
    normal[:, 2] = 1
    base = np.zeros((len(dirs), 3))
    spec_k = np.zeros(len(dirs))
    glow = np.zeros(len(dirs))
    table = owner < 0
    kind = TABLES[rng.integers(0, len(TABLES))]
    tcol, tspec = table_texture(kind, p[table][:, :2], int(rng.integers(0, 2 ** 31)))
    base[table] = tcol
    spec_k[table] = tspec
    for i, d in enumerate(dice):
        m = owner == i
        if not m.any():
            continue
        lp = d.local(p[m])
        e = 1e-3
        g = np.stack([d.sdf(lp + np.eye(3)[k] * e) - d.sdf(lp - np.eye(3)[k] * e) for k in range(3)], -1)
        nl = g / np.linalg.norm(g, axis=1, keepdims=True)
        inpip, depth = d.shade_surface(lp)
        nrm = nl @ d.r.T
        c = np.where(inpip[:, None], d.pipc[None] * (1 - 0.35 * depth[:, None]), d.body[None])
        base[m] = c
        normal[m] = nrm
        spec_k[m] = 0.6
        glow[m] = d.glow
    for lp, lc in lamps:
        ldir = lp[None] - p
        ldist = np.linalg.norm(ldir, axis=1, keepdims=True)
        ldir = ldir / ldist
        lam = np.clip((normal * ldir).sum(1), 0, 1)
        # Shadows are soft: worked out on every other pixel, then smoothed up.
        ph = p.reshape(H, W, 3)[::2, ::2].reshape(-1, 3)
        fin = np.isfinite(tbest.reshape(H, W)[::2, ::2].reshape(-1))
        sh = np.ones(len(ph))
        near = np.zeros(len(ph), bool)
        for d in dice:
            near |= np.linalg.norm(ph[:, :2] - d.pos[:2], axis=1) < 3.5
        idx = np.nonzero(near & fin)[0]
        sh[idx] = soft_shadow(dice, ph[idx], (lp - target) / np.linalg.norm(lp - target))
        sh = cv2.resize(sh.reshape(H // 2, W // 2).astype(np.float32), (W, H), interpolation=cv2.INTER_LINEAR).reshape(-1)
        hv = ldir - dirs
        hv /= np.linalg.norm(hv, axis=1, keepdims=True)
        spec = np.clip((normal * hv).sum(1), 0, 1) ** 60 * spec_k
        col += (base * lam[:, None] * sh[:, None] + spec[:, None] * sh[:, None]) * lc[None]
    col += base * (ambient + 0.4 * glow[:, None])
    img = np.clip(col.reshape(H, W, 3), 0, 1)
    img = post(img, rng, blur, motion)
    truth = []
    for d in dice:
        if d.edge:
            c = cam.project(d.pos)
        else:
            c = cam.project(d.pos + d.r @ np.array([0, 0, 0.5]))
        side = fpx / np.linalg.norm(d.pos - cam.c)
        truth.append({'x': round(c[0] * TO_FRAME, 2), 'y': round(c[1] * TO_FRAME, 2), 'size': round(side * TO_FRAME, 2),
                      'face': 0 if d.edge else d.top, 'style': d.name})
    # What the phone's accelerometer gives: the table's up direction in the
    # camera's coordinates (x right, y down the frame, z along the view).
    up = [float(cam.r[2]), float(-cam.u[2]), float(cam.f[2])]
    return img, truth, {'table': kind, 'blur': blur, 'motion': motion, 'up': [round(v, 5) for v in up]}


def post(img, rng, blur, motion):
    """post is the phone camera: gamma, defocus, shake, noise, JPEG."""
    img = img ** (1 / 2.2)
    if blur > 0:
        img = cv2.GaussianBlur(img, (0, 0), blur)
    if motion > 0:
        k = np.zeros((2 * motion + 1, 2 * motion + 1), np.float32)
        a = rng.uniform(0, np.pi)
        cv2.line(k, (int(motion - motion * np.cos(a)), int(motion - motion * np.sin(a))),
                 (int(motion + motion * np.cos(a)), int(motion + motion * np.sin(a))), 1, 1)
        img = cv2.filter2D(img, -1, k / k.sum())
    img = img * 255 + rng.normal(0, rng.uniform(1.5, 5), img.shape) * np.sqrt(np.clip(img, 0.05, 1))
    return np.clip(img, 0, 255).astype(np.uint8)
