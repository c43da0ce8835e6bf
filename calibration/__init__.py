"""Board models and camera calibration: geometry as data."""
