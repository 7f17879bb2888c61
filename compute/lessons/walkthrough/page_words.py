"""The walkthrough page's words of degree, as the numbers its claims (page_claims.py) check them against."""

JUST_ABOVE = 0.001    # "just above the floor": less than 0.1 % above it
QUERY_GAP = 0.25      # "they differ": in some coordinate by more than a quarter of the largest query entry
MODEST = 2.0          # "a modest gap in the scores": the leading score is less than twice the runner-up's
DECISIVE = 10.0       # "a decisive one in the weights": the leading weight is over ten times the runner-up's
JUST = 0.1            # "keeps just ... of the weight": less than this
MOST = 0.5            # "most of its weight"
CLOSE = 0.15          # "close to fall's value": no coordinate off by more than 15 % of the value's largest entry
FAR_APART = 5.0       # "far apart": their largest coordinate gap over five times their inputs' largest gap
ALMOST_EVEN = 0.05    # "splits almost evenly": each of the two words within 0.05 of one half
STABLE_SUM = 1e-3     # the max-subtracted float16 softmax sums to 1 within this (float16's rounding)
ONLY = 0.25           # "only N converged runs": fewer than a quarter of them
SEVERAL = 3           # "several" / "N different ways": at least three attention patterns
HARDLY = 0.01         # "only ... on fall": the alternative seed's row 13 puts less than this on its cue
