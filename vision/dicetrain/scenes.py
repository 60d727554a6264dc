"""scenes draws the TRAINING throws with OpenCV: dice as rounded solids in
perspective (solid.py), on a table seen through a tilted pinhole camera.

Each die is a rounded cube whose faces are pip textures warped in
perspective, lit by one or two lamps (diffuse and plastic highlights),
opaque, pearly, marbled or translucent, in random body and pip colours,
casting shadows on a table (wood, felt, a rubber mat, stone, brushed
metal, marble, cork or paint, with coins, coasters and rings about). The
frame then gets a little keystone, bar light, blur, shake, noise and JPEG.
The test throws that measure the reader come from a different generator
(dicetest/render.py, a ray tracer) that nothing here uses, so that what is
measured is not this generator's look.

A scene's labels are one (cx, cy, size, face) per die at the 320x240 frame:
the centre of the die's top face and its side there, and its face (1-6),
or 0 for a die on edge (cocked: no face is up), labelled at its middle.
A cocked die floats 0-0.3 of a side off the table, as the scenes3d parts
of the training data were drawn; with rest=True it rests on the table by
its lowest edge or corner instead, as a real one does and the test
generator's do (BENCHMARKS.md, "Cocked dice ... looked at" and "Resting
cocked dice and an edge map"): the classifier learns from those. The two
draw the same scene for a seed but for that.
"""

import cv2
import numpy as np

from dicetrain import solid

cv2.setNumThreads(1)  # scenes are drawn in parallel processes

W, H = 320, 240

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
    if rng.random() < 0.25:  # pips of any colour that stands out on the body
        hsv = np.uint8([[[rng.uniform(0, 180), rng.uniform(100, 255), rng.uniform(60, 255)]]])
        cand = cv2.cvtColor(hsv, cv2.COLOR_HSV2BGR)[0, 0].astype(float)
        if abs(cand.mean() - body.mean()) > 70:
            pip = cand
    return body, pip


def die_look(rng):
    """die_look is a die's material and make: colours, surface, edges, pips."""
    body, pip = die_style(rng)
    k = rng.random()
    look = 'opaque' if k < 0.6 else 'pearly' if k < 0.75 else 'marbled' if k < 0.83 else 'translucent'
    if look == 'pearly':
        body = np.maximum(body, rng.uniform(150, 240))
    return {'body': body, 'pip': pip, 'look': look, 'sheen': rng.uniform(0.04, 0.2),
            'see': rng.uniform(0.25, 0.65) if look == 'translucent' else 0.0,
            'gloss': rng.uniform(0.05, 0.9), 'shininess': rng.uniform(8, 90), 'ambient': rng.uniform(0.12, 0.45),
            'rad': rng.uniform(0.05, 0.2), 'step': rng.uniform(0.22, 0.3), 'pipr': rng.uniform(0.06, 0.11),
            'dimple': rng.uniform(0.1, 0.4) if rng.random() < 0.5 else 0.0}


def background(rng, W=W, H=H):
    """background is a bar top: wood, felt, a rubber mat, stone, paint,
    brushed metal, marble or cork."""
    kind = rng.integers(0, 8)
    yy, xx = np.mgrid[0:H, 0:W].astype(np.float32)
    noise = cv2.resize(rng.normal(0, 1, (H // 8 + 1, W // 8 + 1)).astype(np.float32), (W, H), interpolation=cv2.INTER_CUBIC)
    fine = rng.standard_normal((H, W), dtype=np.float32)
    if kind == 0:  # wood grain
        a = rng.uniform(0, np.pi)
        t = xx * np.cos(a) + yy * np.sin(a)
        grain = np.sin(t * rng.uniform(0.05, 0.3) + noise * rng.uniform(1, 4))
        base = np.array([rng.uniform(10, 70), rng.uniform(25, 100), rng.uniform(50, 160)]) * rng.uniform(1, 1.6)
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
    elif kind == 4:  # painted or varnished, flat with a sheen
        base = rng.uniform(20, 240, 3)
        img = base * (1 + 0.04 * fine[..., None]) * np.ones((H, W, 1))
    elif kind == 5:  # brushed metal: fine streaks one way
        a = rng.uniform(0, 180)
        streak = cv2.GaussianBlur(fine, (0, 0), sigmaX=rng.uniform(8, 25), sigmaY=0.6)
        streak = cv2.warpAffine(streak, cv2.getRotationMatrix2D((W / 2, H / 2), a, 1.0), (W, H), borderMode=cv2.BORDER_REFLECT)
        base = np.array([rng.uniform(110, 230)] * 3) * rng.uniform(0.92, 1.05, 3)
        img = base * (1 + 1.2 * streak[..., None] + 0.1 * noise[..., None])
    elif kind == 6:  # marble: pale stone with dark veins
        t = xx * rng.uniform(-1, 1) + yy * rng.uniform(-1, 1)
        vein = np.abs(np.sin(t * rng.uniform(0.01, 0.05) + noise * rng.uniform(2, 6)))
        base = np.array([rng.uniform(150, 245)] * 3) * rng.uniform(0.9, 1.05, 3)
        img = base * (1 - rng.uniform(0.2, 0.6) * np.exp(-vein / 0.06)[..., None] + 0.03 * fine[..., None])
    else:  # cork or particle board: tan with specks
        speck = cv2.GaussianBlur(fine, (0, 0), rng.uniform(0.6, 1.5))
        base = np.array([rng.uniform(60, 140), rng.uniform(110, 180), rng.uniform(150, 230)])
        img = base * (1 + 0.35 * speck[..., None] + 0.1 * noise[..., None])
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


def ray_to_table(cam, u, v, z):
    """ray_to_table is the point at height z that pixel (u, v) looks at."""
    d = cam['rot'].T @ np.array([(u - W / 2) / cam['f'], (v - H / 2) / cam['f'], 1.0])
    t = (z - cam['pos'][2]) / d[2]
    return cam['pos'] + t * d


def place(rng, cam, n, size):
    """place puts n dice on the table in view (x, y, yaw in die sides),
    some touching, none overlapping."""
    out = []
    for _ in range(300):
        if len(out) == n:
            break
        yaw = rng.uniform(0, np.pi / 2)
        if out and rng.random() < 0.5:  # against a die already there
            ox, oy, oyaw = out[rng.integers(0, len(out))]
            yaw = oyaw + rng.uniform(-0.15, 0.15)
            ang = oyaw + rng.integers(0, 4) * np.pi / 2
            d, slide = rng.uniform(1.0, 1.1), rng.uniform(-0.5, 0.5)
            x = ox + d * np.cos(ang) - slide * np.sin(ang)
            y = oy + d * np.sin(ang) + slide * np.cos(ang)
        else:
            m = 0.8 * size
            x, y, _ = ray_to_table(cam, rng.uniform(m, W - m), rng.uniform(m, H - m), 0.5)
        u, v = solid.project(cam, [x, y, 1.0])
        m = 0.6 * size
        if not (m < u < W - m and m < v < H - m):
            continue
        if any(overlap((x, y, yaw), o) for o in out):
            continue
        out.append((x, y, yaw))
    return out


def overlap(a, b):
    pa = cv2.boxPoints(((a[0] * 100, a[1] * 100), (98, 98), np.degrees(a[2]))).astype(np.float32)
    pb = cv2.boxPoints(((b[0] * 100, b[1] * 100), (98, 98), np.degrees(b[2]))).astype(np.float32)
    area, _ = cv2.intersectConvexConvex(pa, pb)
    return area > 1


def lamps(rng):
    """lamps are one or two bar lamps over the table: (position, power)."""
    out = []
    for k in range(1 if rng.random() < 0.6 else 2):
        pos = np.array([rng.uniform(-6, 6), rng.uniform(-6, 6), rng.uniform(3, 14)])
        out.append((pos, rng.uniform(0.5, 0.9) if k == 0 else rng.uniform(0.15, 0.5)))
    return out


def scene(rng, rest=False, tilts=False, camera=False):
    """scene draws one throw: a 320x240 BGR uint8 image and its labels;
    rest=True rests the cocked dice on the table (module doc). With tilts,
    it also gives each die's facing normal (facing(), in the labels' order);
    with camera, last, the camera (solid.camera) it was drawn with. The
    scene drawn is the same either way."""
    n = int(rng.choice([1, 2, 3, 4, 5, 5, 5, 5]))
    size = rng.uniform(16, 60)  # a die's side in pixels, in the frame's middle
    cam = solid.camera(rng, W, H, size)
    side = 2.2 * W / size  # the table texture's side, in die sides
    tex = background(rng, 640, 640)
    hm = solid.table_homography(cam, -side / 2, -side / 2, side / 640)
    img = cv2.warpPerspective(tex, hm, (W, H), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT).astype(np.float32)
    lights = lamps(rng)
    same = rng.random() < 0.6  # one set of dice, or a mix
    look = die_look(rng)
    dice = []
    for x, y, yaw in place(rng, cam, n, size):
        d = dict(look if same else die_look(rng))
        top = int(rng.integers(1, 7))
        d['edge'] = rng.random() < 0.07
        if d['edge']:
            tilt = (rng.uniform(0.45, 1.1) * rng.choice([-1, 1]), rng.uniform(-0.2, 0.2))
        else:
            tilt = (rng.uniform(-0.04, 0.04), rng.uniform(-0.04, 0.04))
        r = solid.rot(0, 0, yaw) @ solid.rot(tilt[0], tilt[1], 0)
        low = min((r @ np.array([sx, sy, sz]))[2] for sx in (-.5, .5) for sy in (-.5, .5) for sz in (-.5, .5))
        lift = rng.uniform(0, 0.3) if d['edge'] else 0  # drawn either way: the rest of the scene stays the same
        d.update(centre=np.array([x, y, -low + (0 if rest else lift)]), rot=r,
                 faces=die_faces(top, rng), top=top)
        dice.append(d)
    shadow = solid.shadows(cam, dice, lights, W, H)
    shadow = cv2.GaussianBlur(shadow, (0, 0), size * rng.uniform(0.04, 0.25))
    img *= (1 - rng.uniform(0.3, 0.75) * shadow)[..., None]
    labels = []
    before = labels  # finish() keystones a copy: the labels as the camera projects them
    dist = [np.linalg.norm(d['centre'] - cam['pos']) for d in dice]
    for i in np.argsort(dist)[::-1]:  # the far dice first
        d = dice[i]
        solid.draw_die(img, cam, d, lights, rng, lambda v, dd: solid.face_texture(v, dd, PIPS, rng))
    for d in dice:
        if d['edge']:
            u, v = solid.project(cam, d['centre'])
            labels.append((float(u), float(v), size_at(cam, d), 0))
        else:
            u, v = solid.project(cam, d['centre'] + d['rot'] @ np.array([0, 0, 0.5]))
            labels.append((float(u), float(v), size_at(cam, d), d['top']))
    img, labels = finish(img, labels, rng)
    out = (img, labels) + ((([facing(cam, d, lab) for d, lab in zip(dice, before)]),) if tilts else ())
    return out + ((cam,) if camera else ())


def facing(cam, d, label):
    """facing is the unit normal of the face die d shows most squarely to
    the camera, in camera coordinates, turned by the least rotation that
    takes the die's viewing ray (through its label, before the keystone) to
    the optical axis: its (x, y), z being -sqrt(1 - x^2 - y^2). A flat die's
    is the table's normal seen along that ray; a cocked die's is 26 degrees
    or more off it (BENCHMARKS.md, "A whole-throw cue for cocked dice")."""
    to_cam = cam['pos'] - d['centre']
    normals = np.concatenate([d['rot'].T, -d['rot'].T])  # the six faces' normals, world
    n = cam['rot'] @ normals[np.argmax(normals @ to_cam)]
    ray = np.array([(label[0] - W / 2) / cam['f'], (label[1] - H / 2) / cam['f'], 1.0])
    m = to_axis(ray / np.linalg.norm(ray)) @ n
    return float(m[0]), float(m[1])


def to_axis(r):
    """to_axis is the least rotation taking the unit vector r to (0, 0, 1)."""
    v = np.array([r[1], -r[0], 0.0])  # r x (0, 0, 1)
    k = np.array([[0, -v[2], v[1]], [v[2], 0, -v[0]], [-v[1], v[0], 0]])
    return np.eye(3) + k + k @ k / (1 + r[2])


def size_at(cam, d):
    """size_at is the side in pixels of die d's top face as seen."""
    q = solid.project(cam, [d['centre'] + d['rot'] @ np.array([sx, sy, 0.5])
                            for sx, sy in ((-.5, -.5), (.5, -.5), (.5, .5), (-.5, .5))])
    x, y = q[:, 0], q[:, 1]
    area = 0.5 * abs(np.dot(x, np.roll(y, 1)) - np.dot(y, np.roll(x, 1)))
    return float(np.sqrt(area))


def die_faces(top, rng):
    """die_faces gives each of FACES a value: top up, opposite faces sum to 7."""
    others = [f for f in range(1, 7) if f not in (top, 7 - top)]
    a = int(rng.choice(others))
    b = int(rng.choice([f for f in others if f not in (a, 7 - a)]))
    return [top, 7 - top, a, 7 - a, b, 7 - b]


def finish(img, labels, rng):
    """finish keystones, lights, blurs, adds noise and JPEG to a scene."""
    # Keystone: the phone not held square over the table.
    j = 0.025 * W
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
