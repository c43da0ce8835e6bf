"""Computer vision: frame sources, board localisation, piece reading, settle gating, events."""
