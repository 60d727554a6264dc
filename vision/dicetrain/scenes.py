"""scenes draws the TRAINING throws: flat 2D compositing with OpenCV.

Each die is a cube seen by an orthographic camera: its visible faces are
pip textures warped onto the projected quadrilaterals, shaded by one light,
with a soft shadow under it. The whole scene then gets a mild keystone
(a homography), blur, noise and JPEG. The test throws that measure the
reader come from a different generator (dicetest/render.py, a ray tracer),
so that what is measured is not this generator's look.

A scene's labels are one (cx, cy, size, face) per die at the 320x240 frame:
the centre and side of the die's top face, and its face (1-6), or 0 for a
die on edge (cocked: no face is up).
"""

import cv2
import numpy as np

cv2.setNumThreads(1)  # scenes are drawn in parallel processes

W, H = 320, 240
T = 64  # side of a face texture

# Pip centres on a 3x3 grid, in units of the grid step from the face centre.
PIPS = {
    1: [(0, 0)],
    2: [(-1, -1), (1, 1)],
    3: [(-1, -1), (0, 0), (1, 1)],
    4: [(-1, -1), (1, -1), (-1, 1), (1, 1)],
    5: [(-1, -1), (1, -1), (0, 0), (-1, 1), (1, 1)],
    6: [(-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)],
}


def die_style(rng):
    """die_style is a body colour and a pip colour (BGR floats 0-255)."""
    kind = rng.random()
    if kind < 0.45:  # white or ivory with dark pips
        body = np.array([rng.uniform(200, 255)] * 3) * [rng.uniform(0.85, 1), rng.uniform(0.92, 1), 1]
        pip = np.array([rng.uniform(0, 60)] * 3)
        if rng.random() < 0.2:
            pip = np.array([rng.uniform(0, 60), rng.uniform(0, 40), rng.uniform(100, 200)])  # red pips
        if rng.random() < 0.15:
            pip = np.array([rng.uniform(100, 180), rng.uniform(0, 60), rng.uniform(0, 40)])  # blue pips
    else:  # coloured with white (or black) pips
        hue = rng.uniform(0, 180)
        hsv = np.uint8([[[hue, rng.uniform(120, 255), rng.uniform(70, 230)]]])
        body = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
        if rng.random() < 0.5:  # red is the common one
            body = np.array([rng.uniform(0, 60), rng.uniform(0, 50), rng.uniform(120, 230)])
        pip = np.array([rng.uniform(200, 255)] * 3)
        if rng.random() < 0.1:
            pip = np.array([rng.uniform(0, 40)] * 3)
        if rng.random() < 0.1:  # black die
            body = np.array([rng.uniform(10, 50)] * 3)
            pip = np.array([rng.uniform(200, 255)] * 3)
    return body, pip


def face_texture(face, body, pip, rng):
    """face_texture is one face: a rounded square of body colour with pips."""
    tex = np.zeros((T, T, 3), np.float32)
    tex[:] = body
    # A slightly darker rim, as light falls off a rounded edge.
    yy, xx = np.mgrid[0:T, 0:T].astype(np.float32)
    d = np.minimum(np.minimum(xx, T - 1 - xx), np.minimum(yy, T - 1 - yy)) / T
    tex *= (0.8 + 0.2 * np.clip(d / 0.12, 0, 1))[..., None]
    step = T * rng.uniform(0.25, 0.29)
    r = T * rng.uniform(0.07, 0.1)
    rot = rng.integers(0, 4)
    for gx, gy in PIPS[face]:
        for _ in range(rot):
            gx, gy = -gy, gx
        c = (int(round((T / 2 + gx * step) * 16)), int(round((T / 2 + gy * step) * 16)))
        cv2.circle(tex, c, int(r * 16), pip.tolist(), -1, cv2.LINE_AA, shift=4)
    return tex


def rounded_alpha(rng):
    """rounded_alpha is the mask of a face texture with rounded corners."""
    a = np.zeros((T, T), np.float32)
    rad = int(T * rng.uniform(0.08, 0.2))
    cv2.rectangle(a, (rad, 0), (T - 1 - rad, T - 1), 1, -1)
    cv2.rectangle(a, (0, rad), (T - 1, T - 1 - rad), 1, -1)
    for cx in (rad, T - 1 - rad):
        for cy in (rad, T - 1 - rad):
            cv2.circle(a, (cx, cy), rad, 1, -1, cv2.LINE_AA)
    return a


def rot(ax, ay, az):
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


# The cube's faces: outward normal, and two in-face axes (u, v).
FACES = [
    (np.array([0, 0, 1.0]), np.array([1, 0, 0.0]), np.array([0, 1, 0.0])),
    (np.array([0, 0, -1.0]), np.array([1, 0, 0.0]), np.array([0, -1, 0.0])),
    (np.array([1, 0, 0.0]), np.array([0, 1, 0.0]), np.array([0, 0, 1.0])),
    (np.array([-1, 0, 0.0]), np.array([0, -1, 0.0]), np.array([0, 0, 1.0])),
    (np.array([0, 1, 0.0]), np.array([-1, 0, 0.0]), np.array([0, 0, 1.0])),
    (np.array([0, -1, 0.0]), np.array([1, 0, 0.0]), np.array([0, 0, 1.0])),
]


def background(rng):
    """background is a bar top: wood, felt, a rubber mat, stone or paint."""
    kind = rng.integers(0, 5)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    noise = cv2.resize(rng.normal(0, 1, (H // 8 + 1, W // 8 + 1)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    fine = rng.standard_normal((H, W), dtype=np.float32)
    if kind == 0:  # wood grain
        a = rng.uniform(0, np.pi)
        t = xx * np.cos(a) + yy * np.sin(a)
        grain = np.sin(t * rng.uniform(0.05, 0.3) + noise * rng.uniform(1, 4))
        base = np.array([rng.uniform(10, 70), rng.uniform(25, 100), rng.uniform(50, 160)])
        img = base * (1 + 0.25 * grain[..., None] + 0.05 * fine[..., None])
    elif kind == 1:  # felt or cloth
        hue = rng.uniform(0, 180)
        hsv = np.uint8([[[hue, rng.uniform(80, 255), rng.uniform(30, 160)]]])
        base = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
        img = base * (1 + 0.1 * fine[..., None] + 0.08 * noise[..., None])
    elif kind == 2:  # rubber bar mat: a grid of holes or ridges
        base = np.array([rng.uniform(5, 60)] * 3) * [1, 1, rng.uniform(0.9, 1.3)]
        p = rng.uniform(5, 14)
        pat = (np.sin(xx * 2 * np.pi / p) * np.sin(yy * 2 * np.pi / p) > 0.3).astype(np.float32)
        img = base * (1 - 0.4 * pat[..., None] + 0.05 * fine[..., None])
    elif kind == 3:  # stone or laminate
        base = np.array([rng.uniform(40, 200)] * 3) * rng.uniform(0.8, 1.2, 3)
        speck = cv2.GaussianBlur(fine, (0, 0), rng.uniform(0.5, 2))
        img = base * (1 + 0.15 * speck[..., None] + 0.15 * noise[..., None])
    else:  # painted or varnished, flat with a sheen
        base = rng.uniform(20, 220, 3)
        img = base * (1 + 0.04 * fine[..., None]) * np.ones((H, W, 1))
    # Distractors: coins, coasters, a glass's wet ring, a crack.
    img = np.clip(img, 0, 255).astype(np.float32)
    for _ in range(rng.integers(0, 4)):
        col = rng.uniform(0, 255, 3).tolist()
        c = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
        k = rng.integers(0, 4)
        if k == 0:
            cv2.circle(img, c, int(rng.uniform(5, 25)), col, -1, cv2.LINE_AA)
        elif k == 1:
            cv2.circle(img, c, int(rng.uniform(15, 50)), col, int(rng.uniform(1, 4)), cv2.LINE_AA)
        elif k == 2:
            box = cv2.boxPoints((c, (rng.uniform(20, 90), rng.uniform(20, 90)), rng.uniform(0, 90)))
            cv2.fillConvexPoly(img, box.astype(np.int32), col, cv2.LINE_AA)
        else:
            p2 = (int(rng.uniform(0, W)), int(rng.uniform(0, H)))
            cv2.line(img, c, p2, col, int(rng.uniform(1, 3)), cv2.LINE_AA)
    return img


def place(rng, n, size):
    """place puts n dice footprints on the table, some touching, none overlapping."""
    out = []
    for _ in range(200):
        if len(out) == n:
            break
        yaw = rng.uniform(0, np.pi / 2)
        if out and rng.random() < 0.45:  # against a die already there
            ox, oy, oyaw = out[rng.integers(0, len(out))]
            yaw = oyaw + rng.uniform(-0.15, 0.15)
            ang = oyaw + rng.integers(0, 4) * np.pi / 2
            d = size * rng.uniform(1.0, 1.08)
            slide = size * rng.uniform(-0.5, 0.5)
            x = ox + d * np.cos(ang) - slide * np.sin(ang)
            y = oy + d * np.sin(ang) + slide * np.cos(ang)
        else:
            x, y = rng.uniform(0, W), rng.uniform(0, H)
        m = size * 0.75
        if not (m < x < W - m and m < y < H - m):
            continue
        if any(overlap((x, y, yaw), o, size) for o in out):
            continue
        out.append((x, y, yaw))
    return out


def overlap(a, b, size):
    pa = cv2.boxPoints(((a[0], a[1]), (size * 0.98, size * 0.98), np.degrees(a[2]))).astype(np.float32)
    pb = cv2.boxPoints(((b[0], b[1]), (size * 0.98, size * 0.98), np.degrees(b[2]))).astype(np.float32)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    return area > 1


def scene(rng):
    """scene draws one throw: a 320x240 BGR uint8 image and its labels."""
    img = background(rng).astype(np.float32)
    n = int(rng.choice([1, 2, 3, 4, 5, 5, 5, 5]))
    size = rng.uniform(20, 46)
    spots = place(rng, n, size)
    cam = rot(rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35), 0)  # the phone's tilt
    light = np.array([rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0])
    light /= np.linalg.norm(light)
    same = rng.random() < 0.6  # one set of dice, or a mix
    style = die_style(rng)
    dice = []
    for x, y, yaw in spots:
        st = style if same else die_style(rng)
        face = int(rng.integers(1, 7))
        edge = rng.random() < 0.07
        if edge:
            tilt = (rng.uniform(0.45, 1.1) * rng.choice([-1, 1]), rng.uniform(-0.2, 0.2))
        else:
            tilt = (rng.uniform(-0.08, 0.08), rng.uniform(-0.08, 0.08))
        dice.append((x, y, yaw, face, edge, tilt, st))
    # Shadows first, then the dice from the back (painter's order).
    shadow = np.zeros((H, W), np.float32)
    sh = -light[:2] / max(light[2], 0.3) * size * 0.4
    for x, y, yaw, *_ in dice:
        box = cv2.boxPoints(((x + sh[0], y + sh[1]), (size * 1.1, size * 1.1), np.degrees(yaw)))
        cv2.fillConvexPoly(shadow, box.astype(np.int32), 1.0, cv2.LINE_AA)
    shadow = cv2.GaussianBlur(shadow, (0, 0), size * rng.uniform(0.1, 0.3))
    img *= (1 - rng.uniform(0.2, 0.6) * shadow)[..., None]
    labels = []
    for x, y, yaw, face, edge, tilt, (body, pip) in sorted(dice, key=lambda d: d[1]):
        r = cam @ rot(tilt[0], tilt[1], yaw)
        vals = die_faces(face, rng)
        alpha = rounded_alpha(rng)
        centre2 = np.array([x, y])
        quads = []
        for k, (nrm, u, v) in enumerate(FACES):
            nw = r @ nrm
            if nw[2] <= 0.02:
                continue
            corners = [r @ (nrm * 0.5 + su * u * 0.5 + sv * v * 0.5) for su, sv in ((-1, -1), (1, -1), (1, 1))]
            pts = np.array([c[:2] * size + centre2 for c in corners], np.float32)
            quads.append((nw[2], k, nrm, pts))
        for depth, k, nrm, pts in sorted(quads, key=lambda q: q[0]):
            tex = face_texture(vals[k], body, pip, rng)
            shade = 0.45 + 0.55 * max(0.0, float((r @ nrm) @ light))
            tex = tex * shade
            if k == 0 and rng.random() < 0.4:  # a glint of the bar light
                gx, gy = rng.uniform(0.2, 0.8, 2) * T
                yy, xx = np.mgrid[0:T, 0:T]
                tex += rng.uniform(20, 90) * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * (T * 0.15) ** 2))[..., None]
            # Warp the face into its bounding box only.
            quad = np.vstack([pts, pts[0] + pts[2] - pts[1]])
            x0, y0 = np.maximum(np.floor(quad.min(0)).astype(int) - 1, 0)
            x1, y1 = np.minimum(np.ceil(quad.max(0)).astype(int) + 2, [W, H])
            if x1 <= x0 or y1 <= y0:
                continue
            src = np.float32([[0, 0], [T, 0], [T, T]])
            m = cv2.getAffineTransform(src, pts - np.float32([x0, y0]))
            warped = cv2.warpAffine(tex, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)
            a = cv2.warpAffine(alpha, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR)[..., None]
            roi = img[y0:y1, x0:x1]
            img[y0:y1, x0:x1] = roi * (1 - a) + warped * a
        if edge:
            labels.append((x, y, size, 0))
        else:
            c = (r @ np.array([0, 0, 0.5]))[:2] * size + centre2
            labels.append((float(c[0]), float(c[1]), size, face))
    img, labels = finish(img, labels, rng)
    return img, labels


def die_faces(top, rng):
    """die_faces gives each of FACES a value: top up, opposite faces sum to 7."""
    others = [f for f in range(1, 7) if f not in (top, 7 - top)]
    a = int(rng.choice(others))
    b = int(rng.choice([f for f in others if f not in (a, 7 - a)]))
    return [top, 7 - top, a, 7 - a, b, 7 - b]


def finish(img, labels, rng):
    """finish keystones, lights, blurs, adds noise and JPEG to a scene."""
    # Keystone: the phone not held square over the table.
    j = 0.06 * W
    src = np.float32([[0, 0], [W, 0], [W, H], [0, H]])
    dst = src + rng.uniform(-j, j, (4, 2)).astype(np.float32)
    hm = cv2.getPerspectiveTransform(src, dst)
    img = cv2.warpPerspective(img, hm, (W, H), borderMode=cv2.BORDER_REFLECT)
    out = []
    for x, y, s, f in labels:
        p = hm @ np.array([x, y, 1.0])
        jac = np.linalg.det(jacobian(hm, x, y))
        out.append((p[0] / p[2], p[1] / p[2], s * np.sqrt(abs(jac)), f))
    # Bar light: a warm or cold cast, a pool of light, vignetting.
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    lx, ly = rng.uniform(0, W), rng.uniform(0, H)
    pool = np.exp(-((xx - lx) ** 2 + (yy - ly) ** 2) / np.float32(2 * rng.uniform(80, 300) ** 2))
    gain = np.float32(rng.uniform(0.35, 1.0)) + np.float32(rng.uniform(0, 0.6)) * pool
    cast = np.float32([rng.uniform(0.7, 1.05), rng.uniform(0.85, 1.05), rng.uniform(0.95, 1.25)])
    img = img * gain[..., None] * cast
    if rng.random() < 0.8:
        img = cv2.GaussianBlur(img, (0, 0), rng.uniform(0.3, 1.1))
    if rng.random() < 0.2:
        k = int(rng.integers(2, 5))
        ker = np.zeros((2 * k + 1, 2 * k + 1), np.float32)
        a = rng.uniform(0, np.pi)
        cv2.line(ker, (int(k - k * np.cos(a)), int(k - k * np.sin(a))), (int(k + k * np.cos(a)), int(k + k * np.sin(a))), 1, 1)
        img = cv2.filter2D(img, -1, ker / ker.sum())
    img = img + rng.uniform(1, 7) * rng.standard_normal(img.shape, dtype=np.float32)
    img = np.clip(img, 0, 255).astype(np.uint8)
    q = int(rng.uniform(40, 95))
    img = cv2.imdecode(cv2.imencode('.jpg', img, [cv2.IMWRITE_JPEG_QUALITY, q])[1], cv2.IMREAD_COLOR)
    return img, out


def jacobian(hm, x, y, e=0.5):
    def f(px, py):
        p = hm @ np.array([px, py, 1.0])
        return p[:2] / p[2]
    return np.stack([(f(x + e, y) - f(x - e, y)) / (2 * e), (f(x, y + e) - f(x, y - e)) / (2 * e)], axis=1)
