"""Image loading at the boundary: readable images load, everything else is a clear ValueError."""

from __future__ import annotations

import cv2
import numpy as np
import pytest

from vision.frames import ImageLoadError, decode_image, load_image, validate_image


def _jpeg_bytes(width: int = 320, height: int = 240) -> bytes:
    rng = np.random.default_rng(0)
    image = cv2.GaussianBlur(rng.integers(0, 255, (height, width, 3), dtype=np.uint8), (0, 0), 3)
    ok, data = cv2.imencode(".jpg", image)
    assert ok
    return data.tobytes()


def test_reads_a_jpeg_as_bgr(tmp_path):
    path = tmp_path / "frame.jpg"
    path.write_bytes(_jpeg_bytes())
    image = load_image(path)
    assert image.shape == (240, 320, 3) and image.dtype == np.uint8


@pytest.mark.parametrize(
    "name, content, message",
    [
        ("empty.jpg", b"", "empty"),
        ("text.jpg", b"this is not an image at all\n" * 10, "not an image"),
        ("truncated.jpg", _jpeg_bytes()[:3000], "truncated"),
        ("corrupt.png", b"\x89PNG\r\n\x1a\n" + b"\x00" * 200, "not an image"),
    ],
)
def test_bad_files_give_a_clear_error(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(ImageLoadError, match=message):
        load_image(path)


def test_missing_file_and_directory(tmp_path):
    with pytest.raises(ImageLoadError, match="no such file"):
        load_image(tmp_path / "absent.jpg")
    with pytest.raises(ImageLoadError, match="directory"):
        load_image(tmp_path)


def test_large_jpeg_is_decoded_reduced_to_the_bound():
    data = _jpeg_bytes(4000, 3000)
    image = decode_image(data, max_side_px=900)
    assert max(image.shape[:2]) == 900
    assert image.shape[1] / image.shape[0] == pytest.approx(4 / 3, rel=0.01)


@pytest.mark.parametrize(
    "array, message",
    [
        (np.zeros((0, 0, 3), np.uint8), "non-empty"),
        (np.zeros((100, 100, 3), np.float32), "uint8"),
        (np.zeros((8, 8, 3), np.uint8), "too small"),
        ([[1, 2], [3, 4]], "numpy array"),
    ],
)
def test_in_memory_frames_are_validated(array, message):
    with pytest.raises(ValueError, match=message):
        validate_image(array)


def test_grey_frames_become_bgr():
    assert validate_image(np.zeros((50, 60), np.uint8)).shape == (50, 60, 3)


def test_a_50_megapixel_photo_loads_bounded(tmp_path):
    y, x = np.mgrid[0:6000, 0:8400]
    flat = ((x // 7 + y // 5) % 256).astype(np.uint8)
    ok, data = cv2.imencode(".jpg", cv2.merge([flat, flat, flat]), [cv2.IMWRITE_JPEG_QUALITY, 60])
    assert ok
    del y, x, flat
    path = tmp_path / "huge.jpg"
    path.write_bytes(data.tobytes())
    image = load_image(path, max_side_px=1600)
    assert max(image.shape[:2]) == 1600
    assert image.shape[1] / image.shape[0] == pytest.approx(8400 / 6000, rel=0.01)
