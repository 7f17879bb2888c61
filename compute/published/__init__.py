"""Every published file a lesson reads: the story and walkthrough checkpoints with the data each was trained on,
and Part 2B's stored timings; each loaded and checked here, below the lessons, for training, export, measurement
and lessons alike."""
