"""The trained models, each built from compute.nn blocks."""
