"""Neural-network building blocks in the lessons' row-vector convention (X @ W_Q): attention, FFN, block."""
