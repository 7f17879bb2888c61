"""One package per lesson: what the page shows (states, claims, tables, figures, glued values).

A lesson package may define `preflight()`, which the build runs before any page
executes (compute.checks finds every one).
"""
