"""What Part 2B computes from the counts and the stored timings: slopes, ratios, values at scale."""
