"""Lesson-agnostic presentation: the palette, HTML tables, Plotly figures and widgets, glue."""
