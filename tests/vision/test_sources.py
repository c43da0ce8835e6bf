import subprocess
import threading

import cv2
import imageio_ffmpeg
import numpy as np
import pytest

from tests.vision import scripted_video
from vision.sources import ImageFolderSource, SourceError, VideoFileSource, open_source


@pytest.fixture(scope="module")
def clip(tmp_path_factory):
    return scripted_video.write(tmp_path_factory.mktemp("clip") / "clip.mp4")


def test_video_file_frames_are_timed_by_the_container(clip):
    source = open_source(str(clip))
    frames = list(source)
    assert len(frames) == scripted_video.Script().frames
    times = np.array([f.t_s for f in frames])
    assert np.allclose(np.diff(times), 1 / scripted_video.FPS, atol=2e-3)
    assert frames[0].image.shape == (240, 320, 3)
    assert source.report.ended_early == ""


def test_a_variable_frame_rate_file_is_timed_by_its_container(tmp_path):
    # Multiples of 1/25 s: the image demuxer's time base, so the file holds exactly these times.
    durations_s = [0.04, 0.04, 0.12, 0.04, 0.48, 0.04, 0.2, 0.04]
    playlist = []
    for i, duration_s in enumerate(durations_s):
        cv2.imwrite(str(tmp_path / f"{i}.png"), np.full((64, 96, 3), 25 * i, np.uint8))
        playlist += [f"file '{i}.png'", f"duration {duration_s}"]
    (tmp_path / "list.txt").write_text("\n".join(playlist) + f"\nfile '{len(durations_s) - 1}.png'\n")
    subprocess.run([imageio_ffmpeg.get_ffmpeg_exe(), "-loglevel", "error", "-f", "concat", "-safe", "0",
                    "-i", str(tmp_path / "list.txt"), "-fps_mode", "vfr", "-c:v", "libx264", "-pix_fmt", "yuv420p",
                    str(tmp_path / "vfr.mp4")], check=True)
    times_s = [frame.t_s for frame in open_source(str(tmp_path / "vfr.mp4"))][: len(durations_s)]
    assert np.allclose(times_s, np.cumsum([0.0] + durations_s[:-1]), atol=1e-3)


def test_truncated_video_keeps_what_was_decoded_and_says_so(clip, tmp_path):
    data = clip.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) // 2])
    try:
        source = VideoFileSource(cut)
    except SourceError as error:
        assert "cut.mp4" in str(error)  # refused at open: a clear error, nothing invented
        return
    frames = list(source)
    assert len(frames) < scripted_video.Script().frames
    assert source.report.ended_early


@pytest.mark.parametrize("content", [b"", b"not a video at all" * 100])
def test_not_a_video_is_a_clear_error(tmp_path, content):
    path = tmp_path / "broken.mp4"
    path.write_bytes(content)
    with pytest.raises(SourceError, match="broken.mp4"):
        VideoFileSource(path)


def test_missing_file_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="no such video"):
        open_source(str(tmp_path / "absent.mp4"))


def test_image_folder_in_name_order_skipping_unreadable_files(tmp_path):
    for i in (2, 0, 1):
        cv2.imwrite(str(tmp_path / f"frame_{i}.png"), np.full((8, 8, 3), i * 50, np.uint8))
    (tmp_path / "frame_3.jpg").write_bytes(b"\xff\xd8\xff truncated")
    source = ImageFolderSource(tmp_path, fps=2.0)
    frames = list(source)
    assert [int(f.image[0, 0, 0]) for f in frames] == [0, 50, 100]
    assert [f.t_s for f in frames] == [0.0, 0.5, 1.0]
    assert source.report.skipped == ["frame_3.jpg"]


def test_empty_folder_is_a_clear_error(tmp_path):
    with pytest.raises(SourceError, match="no images"):
        ImageFolderSource(tmp_path)


def test_a_video_read_only_in_part_stops_its_decoding_thread(clip):
    source = VideoFileSource(clip)
    frames = iter(source)
    first = [next(frames) for _ in range(3)]
    frames.close()
    assert [f.index for f in first] == [0, 1, 2] and source.report.frames == 3
    assert not [t for t in threading.enumerate() if t.name.startswith("decode ")]
