"""Seeded training: the recipes, the seed search, and the record of where a model was trained."""
