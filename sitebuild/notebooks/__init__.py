"""Stage `notebooks`: each lesson as a Jupyter notebook to download.

In:  posts/<stem>.md, the values its build run glued (_build/jupyter_execute/posts/<stem>.glue.json).
Out: _build/notebooks/<stem>.ipynb.

  write      posts/<stem>.md -> notebooks/<stem>.ipynb
"""
