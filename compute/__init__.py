"""The single source of every number on the site: models, data, training, checkpoints, claims, lessons."""
