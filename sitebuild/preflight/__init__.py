"""Stage `preflight`: compute's own check of every lesson's claims, run when compute's code or data changed.

In:  compute/ (its files' hash), the published checkpoints.
Out: _build/preflight.sha256 once the check passed; a PreflightError naming each failing claim otherwise.

  run        run compute.checks.preflight() when its inputs' hash changed
"""
