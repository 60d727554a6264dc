"""solid draws dice as solids seen through a pinhole camera (for scenes.py).

A die is a cube of side 1 with rounded edges, made of polygons: its six
faces (each a pip texture warped in perspective onto the projected square),
the rounded edges as two strips of facets each, and the corners. Each
polygon is lit by the scene's lamps (diffuse and a plastic highlight,
worked out per pixel over the faces, per facet over edges and corners).
Bodies are opaque, pearly (a drifting sheen of colour) or translucent (the
table shows through). Shadows fall from the lamps onto the table.

World: the table is z = 0, z points up, units are die sides. The camera
looks at a point of the table from above, tilted; cameras are the dict
`cam` made by camera().
"""

import cv2
import numpy as np

T = 64  # side of a face texture


def camera(rng, w, h, size):
    """camera is a pinhole camera over the table's origin, tilted up to
    about 38 degrees and turned at random, far enough that a die there is
    about `size` pixels."""
    f = (w / 2) / np.tan(np.radians(rng.uniform(25, 38)))  # half the horizontal field of view
    dist = f / size
    tilt, az, roll = rng.uniform(0, 0.66), rng.uniform(0, 2 * np.pi), rng.uniform(0, 2 * np.pi)
    pos = dist * np.array([np.sin(tilt) * np.cos(az), np.sin(tilt) * np.sin(az), np.cos(tilt)])
    zc = -pos / np.linalg.norm(pos)
    up = np.array([np.cos(roll), np.sin(roll), 0.0])
    xc = np.cross(zc, up)
    xc /= np.linalg.norm(xc)
    yc = np.cross(zc, xc)
    return {'f': f, 'pos': pos, 'rot': np.stack([xc, yc, zc]), 'w': w, 'h': h}


def project(cam, p):
    """project takes world points (..., 3) to pixels (..., 2)."""
    q = (np.asarray(p, np.float64) - cam['pos']) @ cam['rot'].T
    return np.stack([cam['f'] * q[..., 0] / q[..., 2] + cam['w'] / 2,
                     cam['f'] * q[..., 1] / q[..., 2] + cam['h'] / 2], -1)


def table_homography(cam, x0, y0, scale):
    """table_homography maps a table texture's pixels (i, j), pixel (0, 0)
    at world (x0, y0) and `scale` world units a pixel, into the frame."""
    src = np.float32([[0, 0], [1000, 0], [1000, 1000], [0, 1000]])
    world = np.array([[x0 + i * scale, y0 + j * scale, 0] for i, j in src])
    return cv2.getPerspectiveTransform(src, project(cam, world).astype(np.float32))


def rot(ax, ay, az):
    cx, sx, cy, sy, cz, sz = np.cos(ax), np.sin(ax), np.cos(ay), np.sin(ay), np.cos(az), np.sin(az)
    rx = np.array([[1, 0, 0], [0, cx, -sx], [0, sx, cx]])
    ry = np.array([[cy, 0, sy], [0, 1, 0], [-sy, 0, cy]])
    rz = np.array([[cz, -sz, 0], [sz, cz, 0], [0, 0, 1]])
    return rz @ ry @ rx


# The cube's faces: outward normal and two in-face axes (u, v); u x v = n.
FACES = [
    (np.array([0, 0, 1.0]), np.array([1, 0, 0.0]), np.array([0, 1, 0.0])),
    (np.array([0, 0, -1.0]), np.array([0, 1, 0.0]), np.array([1, 0, 0.0])),
    (np.array([1, 0, 0.0]), np.array([0, 1, 0.0]), np.array([0, 0, 1.0])),
    (np.array([-1, 0, 0.0]), np.array([0, 0, 1.0]), np.array([0, 1, 0.0])),
    (np.array([0, 1, 0.0]), np.array([0, 0, 1.0]), np.array([1, 0, 0.0])),
    (np.array([0, -1, 0.0]), np.array([1, 0, 0.0]), np.array([0, 0, 1.0])),
]


def shade(n, p, cam, lamps, gloss, shininess):
    """shade is the light a surface at p with normal n (both (..., 3))
    returns: diffuse (a factor on the body colour) and highlight (added)."""
    diff = np.full(p.shape[:-1], 0.0)
    spec = np.zeros(p.shape[:-1])
    v = cam['pos'] - p
    v /= np.linalg.norm(v, axis=-1, keepdims=True)
    for pos, power in lamps:
        ll = pos - p
        ll /= np.linalg.norm(ll, axis=-1, keepdims=True)
        diff += power * np.clip((n * ll).sum(-1), 0, None)
        hv = ll + v
        hv /= np.linalg.norm(hv, axis=-1, keepdims=True)
        spec += power * gloss * np.clip((n * hv).sum(-1), 0, None) ** shininess
    return diff, spec


def die_polys(centre, r, rad):
    """die_polys lists a rounded die's polygons: ('face', k, corners, n) for
    the faces (corners in u, v order: (-,-), (+,-), (+,+), (-,+)) and
    ('facet', None, points, n) for the edges' strips and the corners."""
    out = []
    a = 0.5 - rad
    for k, (n, u, v) in enumerate(FACES):
        pts = [centre + r @ (n * 0.5 + (su * u + sv * v) * a) for su, sv in ((-1, -1), (1, -1), (1, 1), (-1, 1))]
        out.append(('face', k, np.array(pts), r @ n))
    axes = np.eye(3)
    for i in range(3):
        for j in range(i + 1, 3):
            e = np.cross(axes[i], axes[j])
            for si in (-1, 1):
                for sj in (-1, 1):
                    na, nb = axes[i] * si, axes[j] * sj
                    base = (na + nb) * a
                    ring = [base + rad * (np.cos(t) * na + np.sin(t) * nb) for t in (0, np.pi / 4, np.pi / 2)]
                    for q in range(2):
                        pts = [ring[q] - e * a, ring[q + 1] - e * a, ring[q + 1] + e * a, ring[q] + e * a]
                        nn = np.cos(np.pi / 8 * (2 * q + 1)) * na + np.sin(np.pi / 8 * (2 * q + 1)) * nb
                        out.append(('facet', None, np.array([centre + r @ p for p in pts]), r @ nn))
    for sx in (-1, 1):
        for sy in (-1, 1):
            for sz in (-1, 1):
                s = np.array([sx, sy, sz], float)
                c = s * a
                pts = [c + rad * s * np.eye(3)[m] for m in range(3)]
                pts += [c + rad * (s * np.eye(3)[m] + s * np.eye(3)[(m + 1) % 3]) / np.sqrt(2) for m in range(3)]
                out.append(('facet', None, np.array([centre + r @ p for p in pts]), r @ (s / np.sqrt(3))))
    return out


def shadows(cam, dice, lamps, w, h):
    """shadows is the mask (0-1) of the dice's shadows on the table."""
    mask = np.zeros((h, w), np.float32)
    corners = np.array([[sx, sy, sz] for sx in (-.5, .5) for sy in (-.5, .5) for sz in (-.5, .5)])
    for pos, power in lamps:
        one = np.zeros((h, w), np.float32)
        for d in dice:
            p = d['centre'] + corners @ d['rot'].T
            k = pos[2] / np.maximum(pos[2] - p[:, 2], 1e-3)
            s = pos + (p - pos) * k[:, None]
            s[:, 2] = 0
            pix = project(cam, s)
            if not np.all(np.isfinite(pix)) or np.abs(pix).max() > 1e4:
                continue
            hull = cv2.convexHull(np.round(pix * 16).astype(np.int32))
            cv2.fillConvexPoly(one, hull, 1.0, cv2.LINE_AA, shift=4)
        mask = np.maximum(mask, one * min(1.0, power))
    return mask


def draw_die(img, cam, d, lamps, rng, texture):
    """draw_die paints die d (centre, rot, rad, body, pip, look, faces)
    onto img (float32 RGB, HxWx3) in place. texture(value) draws a face."""
    h, w = img.shape[:2]
    body = d['body']
    gloss, shininess = d['gloss'], d['shininess']
    see = d['see']  # how much of the table a translucent body lets through
    for kind, k, pts, n in die_polys(d['centre'], d['rot'], d['rad']):
        mid = pts.mean(0)
        if n @ (cam['pos'] - mid) <= 0:
            continue
        pix = project(cam, pts).astype(np.float32)
        if kind == 'facet':
            diff, spec = shade(n[None], mid[None], cam, lamps, gloss, shininess)
            col = body * (d['ambient'] + diff[0]) + 255 * spec[0]
            x0, y0 = np.maximum(np.floor(pix.min(0)).astype(int) - 1, 0)
            x1, y1 = np.minimum(np.ceil(pix.max(0)).astype(int) + 2, [w, h])
            if x1 <= x0 or y1 <= y0:
                continue
            hull = cv2.convexHull(np.round((pix - [x0, y0]) * 16).astype(np.int32))
            m = np.zeros((y1 - y0, x1 - x0), np.float32)
            cv2.fillConvexPoly(m, hull, 1.0, cv2.LINE_AA, shift=4)
            roi = img[y0:y1, x0:x1]
            over = col * (1 - see) + roi * see * body / 255 if see > 0 else col
            img[y0:y1, x0:x1] = roi * (1 - m[..., None]) + over * m[..., None]
            continue
        x0, y0 = np.maximum(np.floor(pix.min(0)).astype(int) - 1, 0)
        x1, y1 = np.minimum(np.ceil(pix.max(0)).astype(int) + 2, [w, h])
        if x1 <= x0 + 1 or y1 <= y0 + 1:
            continue
        tex, alpha, pipmask = texture(d['faces'][k], d)
        # Light per texel, on a coarse grid over the face, then smoothed up.
        g = (np.arange(9) + 0.5) / 9
        gu, gv = np.meshgrid(g, g)
        p = pts[0] + gu[..., None] * (pts[1] - pts[0]) + gv[..., None] * (pts[3] - pts[0])
        diff, spec = shade(np.broadcast_to(n, p.shape), p, cam, lamps, gloss, shininess)
        diff = cv2.resize(diff.astype(np.float32), (T, T), interpolation=cv2.INTER_CUBIC)
        spec = cv2.resize(spec.astype(np.float32), (T, T), interpolation=cv2.INTER_CUBIC)
        lit = tex * (d['ambient'] + diff)[..., None] + 255 * np.clip(spec, 0, None)[..., None] * (1 - 0.5 * pipmask[..., None])
        src = np.float32([[0, 0], [T, 0], [T, T], [0, T]])
        m = cv2.getPerspectiveTransform(src, pix - np.float32([x0, y0]))
        size = (x1 - x0, y1 - y0)
        warped = cv2.warpPerspective(lit.astype(np.float32), m, size, flags=cv2.INTER_LINEAR)
        a = cv2.warpPerspective(alpha, m, size, flags=cv2.INTER_LINEAR)[..., None]
        roi = img[y0:y1, x0:x1]
        if see > 0:
            pm = cv2.warpPerspective(pipmask, m, size, flags=cv2.INTER_LINEAR)[..., None]
            through = see * (1 - pm)
            warped = warped * (1 - through) + roi * through * body / 255 + warped * through * 0.35
        img[y0:y1, x0:x1] = roi * (1 - a) + warped * a


def face_texture(value, d, pips, rng):
    """face_texture is one face as RGB floats, its alpha (a rounded
    square) and its pips' mask, in the die's colours and look."""
    tex = np.empty((T, T, 3), np.float32)
    tex[:] = d['body']
    if d['look'] == 'pearly':
        sheen = cv2.resize(rng.normal(0, 1, (4, 4, 3)).astype(np.float32), (T, T), interpolation=cv2.INTER_CUBIC)
        tex *= 1 + d['sheen'] * sheen
    elif d['look'] == 'marbled':
        swirl = cv2.resize(rng.normal(0, 1, (6, 6)).astype(np.float32), (T, T), interpolation=cv2.INTER_CUBIC)
        tex[:] = tex * (1 - 0.5 * np.exp(-swirl ** 2 * 8))[..., None]
    mask = np.zeros((T, T), np.float32)
    step = T * d['step']
    r = T * d['pipr']
    turn = rng.integers(0, 4)
    for gx, gy in pips[value]:
        for _ in range(turn):
            gx, gy = -gy, gx
        c = (int(round((T / 2 + gx * step) * 16)), int(round((T / 2 + gy * step) * 16)))
        cv2.circle(mask, c, int(r * 16), 1.0, -1, cv2.LINE_AA, shift=4)
        if d['dimple'] > 0:  # a concave pip: its upper rim in shadow
            cs = (c[0] - int(r * 5), c[1] - int(r * 5))
            cv2.circle(tex, cs, int(r * 16), (d['body'] * (1 - d['dimple'])).tolist(), -1, cv2.LINE_AA, shift=4)
    pip = np.broadcast_to(d['pip'], tex.shape)
    tex = tex * (1 - mask[..., None]) + pip * mask[..., None]
    alpha = np.ones((T, T), np.float32)
    return tex.astype(np.float32), alpha, mask
