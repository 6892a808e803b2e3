import torch
import torch.nn as nn
import torch.nn.functional as F


class Model(nn.Module):
    """NetVLAD: soft cluster assignment (ghost clusters absorb noise), residual sums, two normalisations."""

    def __init__(self, feature_size, cluster_size, ghost_clusters):
        super().__init__()
        self.cluster_size = cluster_size
        self.clusters = nn.Parameter(torch.zeros(feature_size, cluster_size + ghost_clusters))
        self.batch_norm = nn.BatchNorm1d(cluster_size + ghost_clusters)
        self.clusters2 = nn.Parameter(torch.zeros(1, feature_size, cluster_size))

    def forward(self, x):
        b, n, d = x.shape
        assignment = self.batch_norm(x.reshape(-1, d) @ self.clusters)
        assignment = torch.softmax(assignment, dim=1)[:, :self.cluster_size].reshape(b, n, self.cluster_size)
        a = assignment.sum(dim=1, keepdim=True) * self.clusters2           # [b, d, k]
        vlad = torch.matmul(assignment.transpose(1, 2), x).transpose(1, 2) - a
        vlad = F.normalize(vlad, dim=1)
        return F.normalize(vlad.reshape(b, -1), dim=1)
