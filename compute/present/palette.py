"""The site's colours and type: one colour scale for every heatmap, a few viridis-family marks, one font."""
from __future__ import annotations

COLORSCALE = "Viridis"  # perceptually even and readable with colour-blindness; every heatmap uses it
BAR = "#3b528b"         # viridis blue: plain bars
MARK = "#5ec962"        # viridis green: the selected item
HIGHLIGHT = "#fde725"   # viridis yellow: the highlighted item
ACCENT = "#e3a71b"      # amber: a second series, or positions a mask hides
TEAL = "#21918c"        # viridis teal
PURPLE = "#440154"      # viridis purple
OUTLINE = "#d01c8b"     # magenta: visible on navy and on yellow cells
MUTED = "#b8c2d6"       # inactive steps
GUIDE = "#888"          # reference lines
FONT = dict(family="system-ui, -apple-system, 'Segoe UI', sans-serif", size=13)
TITLE_SIZE = 15         # every figure's title, one size across the site
SUBTITLE = "#555"       # subplot titles
EDGE = "#444"           # outlines of light bars
EMPTY = "#e8e8e8"       # cells left out (a window's unused tokens)
