"""parity checks that dicereader.js computes what PyTorch does: it exports
randomly initialised networks (with random batch-norm statistics, so the
folding is checked too), runs both on the same input in PyTorch and in
Node.js, and compares the outputs.

    python3 -m dicetrain.parity
"""

import json
import os
import subprocess
import tempfile

import numpy as np
import torch

from dicetrain import level
from dicetrain.train import Classifier, Detector, export

APP = os.path.join(os.path.dirname(__file__), '..', '..', 'api', 'web', 'app', 'dicereader.js')

NODE = """
import { readFileSync } from 'node:fs';
const { classifyLevel, parseModel, run } = await import(process.argv[2]);
const buf = readFileSync(process.argv[3]);
const model = parseModel(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
const inp = JSON.parse(readFileSync(process.argv[4], 'utf8'));
const det = run(model.detector, Float32Array.from(inp.det), 120, 160);
const cls = run(model.classifier, Float32Array.from(inp.cls), 32, 32);
const lv = await import(process.argv[2].replace('dicereader.js', 'level.js'));
const view = lv.levelView(inp.up, inp.focal, 320, 240);
const crops = inp.at.map(([x, y, side]) => {
  const { angle, oblique } = lv.canon(view, x, y);
  return { angle, oblique, crop: Array.from(lv.levelCrop(Float32Array.from(inp.img), 320, 240, view, x, y, side, angle, 32)) };
});
const wb = readFileSync(process.argv[5]);
const wide = parseModel(wb.buffer.slice(wb.byteOffset, wb.byteOffset + wb.length));
const lcls = run(wide.classifier, Float32Array.from(inp.lcls), 32, 32);
const named = inp.at.map(([x, y, side]) => classifyLevel(wide, view, Float32Array.from(inp.img), 320, 240,
  { x, y, size: side / wide.crop }));
console.log(JSON.stringify({ det: Array.from(det.data), cls: Array.from(cls.data), crops, lcls: Array.from(lcls.data),
  level: wide.level, named }));
"""


def main():
    torch.manual_seed(3)
    d, c, lc = Detector(), Classifier(), level.classifier(wide=True)
    for net in (d, c, lc):
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.2, 0.2)
        net.eval()
    xd = torch.randn(1, 3, 120, 160)
    xc = torch.randn(1, 3, 32, 32)
    with torch.no_grad():
        # float16 weights: compare with the same rounding
        for net in (d, c, lc):
            for p in net.parameters():
                p.copy_(p.half().float())
        od = d(xd)[0].permute(1, 2, 0).flatten().numpy()
        oc = c(xc)[0].numpy()
        xl = torch.randn(1, 4, 32, 32)
        ol = lc(xl)[0].numpy()
    # The level view's crops: a random frame, a tilted phone, dice here and there.
    rng = np.random.default_rng(4)
    img = rng.uniform(0, 255, (240, 320, 3)).astype(np.float32)
    up = level.gravity({'rot': level.to_axis(np.array([0.3, -0.2, 0.93]) / np.linalg.norm([0.3, -0.2, 0.93]))}, rng)
    hm = level.homography(up)
    at = [(40.3, 30.7, 30.0), (160.0, 120.0, 45.5), (290.2, 200.9, 22.1), (10.0, 230.0, 50.0)]
    want = [(level.canon(hm, x, y), level.crop(img, hm, x, y, s, level.canon(hm, x, y)[0])) for x, y, s in at]
    with torch.no_grad():  # what the reader makes of those crops: level.inputs' packing, then softmax
        crops = torch.from_numpy(np.stack([c for _, c in want])).permute(0, 3, 1, 2)
        named = torch.softmax(lc(level.inputs(crops, [o for (_, o), _ in want])), 1).numpy()
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, 'm.bin')
        export(d, c, model)
        wide = os.path.join(tmp, 'w.bin')
        export(d, lc, wide, extra={'level': {'focal': level.FOCAL, 'plane': level.PLANE}})
        inp = os.path.join(tmp, 'in.json')
        with open(inp, 'w') as f:
            json.dump({'det': xd[0].permute(1, 2, 0).flatten().tolist(), 'cls': xc[0].permute(1, 2, 0).flatten().tolist(),
                       'lcls': xl[0].permute(1, 2, 0).flatten().tolist(), 'img': img.flatten().tolist(),
                       'up': [float(v) for v in up], 'focal': level.FOCAL, 'at': at}, f)
        script = os.path.join(tmp, 'p.mjs')
        with open(script, 'w') as f:
            f.write(NODE)
        out = json.loads(subprocess.check_output(['node', script, 'file://' + os.path.abspath(APP), model, inp, wide]))
    ed = np.abs(np.array(out['det']) - od).max() / (np.abs(od).max() + 1e-9)
    ec = np.abs(np.array(out['cls']) - oc).max() / (np.abs(oc).max() + 1e-9)
    el = np.abs(np.array(out['lcls']) - ol).max() / (np.abs(ol).max() + 1e-9)
    en = np.abs(np.array(out['named']) - named).max()
    turn = max(abs(g['angle'] - a) + abs(g['oblique'] - o) for g, ((a, o), _) in zip(out['crops'], want))
    pixels = np.concatenate([np.abs(np.array(g['crop']) - w.reshape(-1)) for g, (_, w) in zip(out['crops'], want)])
    print(f'detector: largest difference {ed:.2e} of its range; classifier: {ec:.2e}; level classifier: {el:.2e} '
          f'(a die named in the level view, probabilities: {en:.1e}); '
          f'level crops: turn and obliqueness within {turn:.1e} rad, {np.mean(pixels > 0):.2%} of values differ, '
          f'by at most {pixels.max():.0f}')
    assert out['level'] == {'focal': level.FOCAL, 'plane': level.PLANE}, out['level']
    assert ed < 2e-2 and ec < 2e-2 and el < 2e-2 and en < 1e-4, 'dicereader.js and PyTorch disagree'
    assert turn < 1e-9 and pixels.max() <= 1 and np.mean(pixels > 0) < 0.01, 'level.js and level.py cut different crops'


if __name__ == '__main__':
    main()
