"""frombin loads a model file (dice.bin, as export wrote it) back into
PyTorch networks, so that a check can read with exactly the weights the
app reads with (float16, batch norm folded in) when the training
checkpoints are not at hand.

    det, cls, head = frombin.load('../api/web/app/dice.bin')

The detector is a train.Detector; the classifier a level.classifier() when
the header has the level view (with the file's layer widths), a
train.Classifier otherwise. Each folded
convolution goes back into its conv + batch norm block with the norm made
the identity plus the folded bias.
"""

import json
import struct

import numpy as np
import torch

from dicetrain.train import Classifier, Detector


def load(path):
    """load is (detector, classifier, header) from the model file at path."""
    with open(path, 'rb') as f:
        buf = f.read()
    if buf[:4] != b'TDM1':
        raise ValueError(f'{path} is not a dice model file')
    n = struct.unpack('<I', buf[4:8])[0]
    head = json.loads(buf[8:8 + n])
    weights = np.frombuffer(buf[8 + n:], dtype='<f2').astype(np.float32)
    heads = [l for l in head['layers'] if l['net'] == 'detector']
    det = Detector(edge=heads[-1]['shape'][0] == 3)
    if head.get('level'):
        from dicetrain.level import classifier
        layers = [l for l in head['layers'] if l['net'] == 'classifier' and 'shape' in l]
        widths = tuple(l['shape'][0] for l in layers[:-1])  # the convolutions' and the first dense layer's
        cls = classifier() if widths == (12, 24, 32, 32) else classifier(channels=widths)  # fill refuses a misfit
    else:
        cls = Classifier()
    for net, name in ((det, 'detector'), (cls, 'classifier')):
        fill(net, [l for l in head['layers'] if l['net'] == name], weights)
        net.eval()
    return det, cls, head


def fill(net, layers, weights):
    """fill puts the file's layers (in order) into net's modules."""
    blocks = [m for m in net.body if not isinstance(m, torch.nn.MaxPool2d)]
    tail = [net.head] if hasattr(net, 'head') else [net.fc1, net.fc2]
    convs = [l for l in layers if l['kind'] == 'conv']
    dense = [l for l in layers if l['kind'] == 'dense']
    if len(convs) + len(dense) != len(blocks) + len(tail):
        raise ValueError('the model file does not fit this network')
    with torch.no_grad():  # copy_ refuses a layer whose shape differs from the network's
        for block, l in zip(blocks, convs):
            w, b = tensors(l, weights)
            c, bn = block[0], block[1]
            if (c.stride[0], c.dilation[0]) != (l.get('stride', 1), l.get('dil', 1)):
                raise ValueError(f'the model file\'s layer {l} does not fit {c}')
            c.weight.copy_(w.permute(0, 3, 1, 2))
            bn.weight.fill_(1.0)
            bn.bias.copy_(b)
            bn.running_mean.zero_()
            bn.running_var.fill_(1.0)
            bn.eps = 0.0  # so that export folds it back to exactly these weights
        for m, l in zip(tail, convs[len(blocks):] + dense):
            w, b = tensors(l, weights)
            m.weight.copy_(w.permute(0, 3, 1, 2) if w.dim() == 4 else w)
            m.bias.copy_(b)


def tensors(l, weights):
    """tensors is one layer's weights (in the file's order) and bias."""
    size = int(np.prod(l['shape']))
    w = torch.from_numpy(weights[l['w']:l['w'] + size].reshape(l['shape']).copy())
    b = torch.from_numpy(weights[l['b']:l['b'] + l['shape'][0]].copy())
    return w, b
