"""Checkpoints turned into files the site serves (the page's JavaScript model)."""
