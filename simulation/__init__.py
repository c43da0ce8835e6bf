"""Synthetic boards: physics, renderer, camera model and ground truth."""
