"""Training data: the walkthrough's eight sentences."""
