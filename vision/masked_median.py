"""The median of each row over the entries a mask keeps, by sorting (several times quicker than a masked median)."""

from __future__ import annotations

import numpy as np


def masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Median along axis 1 of `values` (n, k) or (n, k, c) over the entries where `mask` (n, k) holds.

    Returns (n,) or (n, c); nan for a row the mask keeps nothing of.

    Examples
    --------
    >>> masked_median(np.array([[1.0, 5.0, 3.0, 9.0]]), np.array([[True, True, True, False]]))
    array([3.])
    """
    values = np.asarray(values, np.float64)
    keep = np.asarray(mask, bool).reshape(mask.shape + (1,) * (values.ndim - 2))
    # The entries left out sort past the end of each row.
    ordered = np.sort(np.where(keep, values, np.inf), axis=1)
    count = np.broadcast_to(keep, values.shape).sum(axis=1, keepdims=True)
    low = np.take_along_axis(ordered, np.maximum((count - 1) // 2, 0), axis=1)
    high = np.take_along_axis(ordered, np.minimum(count // 2, values.shape[1] - 1), axis=1)
    return np.where(count > 0, (low + high) / 2, np.nan)[:, 0]
