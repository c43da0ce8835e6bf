"""Suite-wide test settings."""

from hypothesis import HealthCheck, settings

# CI runners share their cores; generated cases are judged on their outcome, never on their speed.
settings.register_profile("shared-cores", deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("shared-cores")
