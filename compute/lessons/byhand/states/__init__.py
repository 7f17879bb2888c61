"""What the hand-set model and the lesson's toy examples compute: numpy only, no presentation.

Claims and tests read these states; the topic modules one folder up turn them
into tables and figures.
"""
