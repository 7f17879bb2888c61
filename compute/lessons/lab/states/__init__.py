"""The lab's computations: its run, the followed case and the knockout; nothing here draws or formats a page."""
