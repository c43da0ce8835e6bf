"""The locators' cheap working copies: the sizes promised, and pixel positions mapped with pixel centres kept."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.frames import downscale
from vision.homography import project
from vision.working_copies import region_view, shrunk


def _spot_image(width: int, height: int, centre_px: tuple[float, float]) -> np.ndarray:
    """A dark frame with one bright, smooth spot (a Gaussian of sigma 6 px) at a sub-pixel position."""
    y, x = np.mgrid[0:height, 0:width].astype(np.float64)
    spot = np.exp(-((x - centre_px[0]) ** 2 + (y - centre_px[1]) ** 2) / (2 * 6.0**2))
    return np.round(20 + 220 * spot).astype(np.uint8)


def _centroid(image: np.ndarray) -> np.ndarray:
    weight = np.clip(image.astype(np.float64) - 20, 0, None)
    y, x = np.mgrid[0 : image.shape[0], 0 : image.shape[1]]
    return np.array([(weight * x).sum(), (weight * y).sum()]) / weight.sum()


@pytest.mark.parametrize("shape, max_side_px", [((1080, 1920), 800), ((1080, 1920), 640), ((1081, 1917), 500), ((300, 200), 400)])
def test_a_shrunk_copy_has_the_size_downscale_gives(shape, max_side_px):
    gray = np.random.default_rng(0).integers(0, 255, shape, dtype=np.uint8)
    assert shrunk(gray, max_side_px=max_side_px).shape == downscale(gray, max_side_px=max_side_px).shape


@pytest.mark.parametrize("target_radius_px", [450.0, 300.0, 120.0, 1000.0])
def test_a_region_view_maps_a_spot_onto_itself(target_radius_px):
    spot_px = (1013.3, 521.7)
    image = _spot_image(1920, 1080, spot_px)
    view, to_view = region_view(image, centre_px=(960.0, 540.0), radius_px=700.0, target_radius_px=target_radius_px)
    assert max(view.shape) <= 2 * max(target_radius_px, 700.0) + 2
    expected = project(to_view, np.array([spot_px]))[0]
    # the spot's centroid in the view is where the map puts it, to a small fraction of a view pixel
    assert np.linalg.norm(_centroid(view) - expected) < 0.05


def test_a_region_view_of_a_small_region_is_a_crop():
    image = cv2.GaussianBlur(np.random.default_rng(1).integers(0, 255, (400, 600), dtype=np.uint8), (5, 5), 0)
    view, to_view = region_view(image, centre_px=(300.0, 200.0), radius_px=100.0, target_radius_px=450.0)
    assert view.shape == (200, 200)
    assert np.array_equal(view, image[100:300, 200:400])
    assert np.allclose(project(to_view, np.array([[250.0, 150.0]])), [[50.0, 50.0]])
