"""parity checks that dicereader.js computes what PyTorch does: it exports
randomly initialised networks (the detector, the classifier and the
context network, with random batch-norm statistics, so the folding is
checked too), runs each on the same input in PyTorch and in Node.js, and
compares the outputs.

    python3 -m dicetrain.parity
"""

import json
import os
import subprocess
import tempfile

import numpy as np
import torch

from dicetrain import context
from dicetrain.train import Classifier, Detector, export

APP = os.path.join(os.path.dirname(__file__), '..', '..', 'api', 'web', 'app', 'dicereader.js')

NODE = """
import { readFileSync } from 'node:fs';
const { parseModel, run } = await import(process.argv[2]);
const buf = readFileSync(process.argv[3]);
const model = parseModel(buf.buffer.slice(buf.byteOffset, buf.byteOffset + buf.length));
const inp = JSON.parse(readFileSync(process.argv[4], 'utf8'));
const det = run(model.detector, Float32Array.from(inp.det), 120, 160);
const cls = run(model.classifier, Float32Array.from(inp.cls), 32, 32);
const ctx = run(model.context, Float32Array.from(inp.ctx), model.contextSize, model.contextSize);
console.log(JSON.stringify({ det: Array.from(det.data), cls: Array.from(cls.data), ctx: Array.from(ctx.data) }));
"""


def main():
    torch.manual_seed(3)
    d, c, k = Detector(), Classifier(), context.net()
    for net in (d, c, k):
        for m in net.modules():
            if isinstance(m, torch.nn.BatchNorm2d):
                m.running_mean.uniform_(-0.5, 0.5)
                m.running_var.uniform_(0.5, 2)
                m.weight.data.uniform_(0.5, 1.5)
                m.bias.data.uniform_(-0.2, 0.2)
        net.eval()
    xd = torch.randn(1, 3, 120, 160)
    xc = torch.randn(1, 3, 32, 32)
    xk = torch.randn(1, 3, context.SIZE, context.SIZE)
    with torch.no_grad():
        # float16 weights: compare with the same rounding
        for net in (d, c, k):
            for p in net.parameters():
                p.copy_(p.half().float())
        od = d(xd)[0].permute(1, 2, 0).flatten().numpy()
        oc = c(xc)[0].numpy()
        ok = k(xk)[0].numpy()
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, 'm.bin')
        export(d, c, model, k, 0.5)
        inp = os.path.join(tmp, 'in.json')
        with open(inp, 'w') as f:
            json.dump({'det': xd[0].permute(1, 2, 0).flatten().tolist(), 'cls': xc[0].permute(1, 2, 0).flatten().tolist(),
                       'ctx': xk[0].permute(1, 2, 0).flatten().tolist()}, f)
        script = os.path.join(tmp, 'p.mjs')
        with open(script, 'w') as f:
            f.write(NODE)
        out = json.loads(subprocess.check_output(['node', script, 'file://' + os.path.abspath(APP), model, inp]))
    ed = np.abs(np.array(out['det']) - od).max() / (np.abs(od).max() + 1e-9)
    ec = np.abs(np.array(out['cls']) - oc).max() / (np.abs(oc).max() + 1e-9)
    ek = np.abs(np.array(out['ctx']) - ok).max() / (np.abs(ok).max() + 1e-9)
    print(f'detector: largest difference {ed:.2e} of its range; classifier: {ec:.2e}; context: {ek:.2e}')
    assert ed < 2e-2 and ec < 2e-2 and ek < 2e-2, 'dicereader.js and PyTorch disagree'


if __name__ == '__main__':
    main()
