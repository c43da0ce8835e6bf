"""The HTTP service: matches, events, live feed, overlay and referee pages."""
