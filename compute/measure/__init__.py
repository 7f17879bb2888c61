"""Timing benchmarks whose results lessons show: run by hand, stored as files, never at build time."""
