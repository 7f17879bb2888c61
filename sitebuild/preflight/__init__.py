"""Stage `preflight`: compute's own check of each lesson's claims, run when what that check reads changed.

In:  the compute modules each lesson's check imports, the checkpoints and data they declare (its key).
Out: _build/preflight.json, each lesson's key once its check passed; _build/preflight-times.json, how long each
     lesson page's check took (the pages stage starts the longest lesson first); a PreflightError naming each
     failing claim otherwise.

  run        compute.checks.WARM_UPS side by side (the measurements several checks read, kept on disk), then
             compute.checks.preflight([lesson]) for each lesson whose key changed; all of it in a thread beside
             the pages stage (Beside), which a failed check stops
"""
