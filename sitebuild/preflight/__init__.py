"""Stage `preflight`: compute's own check of each lesson's claims, run when what that check reads changed.

In:  the compute modules each lesson's check imports, the checkpoints and data they declare (its key).
Out: _build/preflight.json, each lesson's key once its check passed; a PreflightError naming each failing claim
     otherwise.

  run        run compute.checks.preflight([lesson]) for each lesson whose key changed
"""
