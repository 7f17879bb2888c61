"""The attention-by-hand lesson: a hand-set four-feature model and its worked steps."""
