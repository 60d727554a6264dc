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
console.log(JSON.stringify({ det: Array.from(det.data), cls: Array.from(cls.data) }));
"""


def main():
    torch.manual_seed(3)
    d, c = Detector(), Classifier()
    for net in (d, c):
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
        for net in (d, c):
            for p in net.parameters():
                p.copy_(p.half().float())
        od = d(xd)[0].permute(1, 2, 0).flatten().numpy()
        oc = c(xc)[0].numpy()
    with tempfile.TemporaryDirectory() as tmp:
        model = os.path.join(tmp, 'm.bin')
        export(d, c, model)
        inp = os.path.join(tmp, 'in.json')
        with open(inp, 'w') as f:
            json.dump({'det': xd[0].permute(1, 2, 0).flatten().tolist(), 'cls': xc[0].permute(1, 2, 0).flatten().tolist()}, f)
        script = os.path.join(tmp, 'p.mjs')
        with open(script, 'w') as f:
            f.write(NODE)
        out = json.loads(subprocess.check_output(['node', script, 'file://' + os.path.abspath(APP), model, inp]))
    ed = np.abs(np.array(out['det']) - od).max() / (np.abs(od).max() + 1e-9)
    ec = np.abs(np.array(out['cls']) - oc).max() / (np.abs(oc).max() + 1e-9)
    print(f'detector: largest difference {ed:.2e} of its range; classifier: {ec:.2e}')
    assert ed < 2e-2 and ec < 2e-2, 'dicereader.js and PyTorch disagree'


if __name__ == '__main__':
    main()
