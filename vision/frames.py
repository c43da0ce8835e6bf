"""Image loading at the boundary: a file becomes a BGR array or a clear error.

Huge photos are decoded at a reduced scale by the JPEG decoder itself, so a
50-megapixel photo never costs its full-size memory when only a working copy
is needed.
"""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

MAX_DECODE_PIXELS = 120_000_000
"""Refuse images whose header claims more pixels than this (decompression bombs)."""

_JPEG_SOI = b"\xff\xd8"
_JPEG_EOI = b"\xff\xd9"
_REDUCED_FLAGS = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}


class ImageLoadError(ValueError):
    """A file that is not a readable image (missing, empty, corrupt, truncated)."""


def _image_size(data: bytes, path: Path) -> tuple[int, int]:
    """(width, height) from the file header, without decoding the pixels."""
    from io import BytesIO

    from PIL import Image, UnidentifiedImageError

    try:
        with Image.open(BytesIO(data)) as header:
            return header.size
    except (UnidentifiedImageError, OSError, SyntaxError) as error:
        raise ImageLoadError(f"{path}: not an image file (unrecognised format or corrupt header)") from None
    except Image.DecompressionBombError:
        raise ImageLoadError(f"{path}: image header claims an implausibly large size") from None


def image_size(path: str | Path) -> tuple[int, int]:
    """(width, height) of an image file, read from its header."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise ImageLoadError(f"{path}: cannot read ({error.strerror})") from None
    if not data:
        raise ImageLoadError(f"{path}: empty file")
    return _image_size(data, path)


def load_image(path: str | Path, *, max_side_px: int | None = None) -> np.ndarray:
    """Read an image file into a BGR ``uint8`` array.

    Parameters
    ----------
    path : str or Path
        Image file (any format OpenCV decodes: JPEG, PNG, BMP, TIFF, WebP).
    max_side_px : int, optional
        Upper bound on the longer side of the returned image. JPEGs larger than
        this are decoded at 1/2, 1/4 or 1/8 scale by the decoder (memory stays
        bounded), then resized; without it the image is returned at full size.

    Returns
    -------
    image : (H, W, 3) uint8 ndarray

    Raises
    ------
    ImageLoadError
        Missing, empty, corrupt or truncated file, or not an image.

    Examples
    --------
    >>> image = load_image("board.jpg", max_side_px=1280)  # doctest: +SKIP
    """
    path = Path(path)
    if max_side_px is not None and max_side_px < 16:
        raise ValueError(f"max_side_px must be at least 16, got {max_side_px}")
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageLoadError(f"{path}: no such file") from None
    except IsADirectoryError:
        raise ImageLoadError(f"{path}: is a directory, not an image") from None
    except OSError as error:
        raise ImageLoadError(f"{path}: cannot read ({error.strerror})") from None
    return decode_image(data, max_side_px=max_side_px, name=str(path))


def decode_image(data: bytes, *, max_side_px: int | None = None, name: str = "image") -> np.ndarray:
    """Decode encoded image bytes into a BGR ``uint8`` array (see `load_image`)."""
    if not data:
        raise ImageLoadError(f"{name}: empty file")
    width, height = _image_size(data, Path(name))
    if width * height > MAX_DECODE_PIXELS:
        raise ImageLoadError(f"{name}: {width}x{height} is larger than {MAX_DECODE_PIXELS} pixels")
    is_jpeg = data.startswith(_JPEG_SOI)
    # A cut-off JPEG decodes "successfully" with grey rows; its missing end marker gives it away.
    if is_jpeg and _JPEG_EOI not in data[-1024:]:
        raise ImageLoadError(f"{name}: truncated JPEG (no end-of-image marker)")
    flag = cv2.IMREAD_COLOR
    if is_jpeg and max_side_px is not None:
        for factor in (8, 4, 2):
            if max(width, height) / factor >= max_side_px:
                flag = _REDUCED_FLAGS[factor]
                break
    image = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
    if image is None or image.size == 0:
        raise ImageLoadError(f"{name}: corrupt or unsupported image data")
    if max_side_px is not None and max(image.shape[:2]) > max_side_px:
        image = downscale(image, max_side_px=max_side_px)
    return image


def downscale(image: np.ndarray, *, max_side_px: int) -> np.ndarray:
    """A copy of `image` shrunk (area interpolation) so its longer side is at most `max_side_px`."""
    scale = max_side_px / max(image.shape[:2])
    if scale >= 1:
        return image
    size = (max(1, round(image.shape[1] * scale)), max(1, round(image.shape[0] * scale)))
    return cv2.resize(image, size, interpolation=cv2.INTER_AREA)


def validate_image(image: np.ndarray, *, name: str = "image") -> np.ndarray:
    """Check an in-memory frame: a non-empty (H, W) or (H, W, 3/4) uint8 array; returns it as BGR.

    Raises
    ------
    ValueError
        With a message naming `name` when the array is not an image.
    """
    if not isinstance(image, np.ndarray):
        raise ValueError(f"{name} must be a numpy array, got {type(image).__name__}")
    if image.size == 0 or image.ndim not in (2, 3):
        raise ValueError(f"{name} must be a non-empty (H, W) or (H, W, C) array, got shape {image.shape}")
    if image.dtype != np.uint8:
        raise ValueError(f"{name} must be uint8, got {image.dtype}")
    if min(image.shape[:2]) < 16:
        raise ValueError(f"{name} is too small ({image.shape[1]}x{image.shape[0]} px)")
    if image.ndim == 2:
        return cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    if image.shape[2] == 4:
        return cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    if image.shape[2] != 3:
        raise ValueError(f"{name} must have 1, 3 or 4 channels, got {image.shape[2]}")
    return image
