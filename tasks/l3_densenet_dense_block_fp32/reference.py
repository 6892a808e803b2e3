import torch
import torch.nn as nn


class Model(nn.Module):
    """Dense block: every layer sees the concatenation of the input and all earlier outputs."""

    def __init__(self, num_layers, num_input_features, growth_rate):
        super().__init__()
        self.layers = nn.ModuleList()
        for i in range(num_layers):
            cin = num_input_features + i * growth_rate
            self.layers.append(nn.Sequential(
                nn.BatchNorm2d(cin), nn.ReLU(inplace=False),
                nn.Conv2d(cin, growth_rate, 3, padding=1, bias=False), nn.Dropout(0.0)))

    def forward(self, x):
        features = [x]
        for layer in self.layers:
            features.append(layer(torch.cat(features, 1)))
        return torch.cat(features, 1)
