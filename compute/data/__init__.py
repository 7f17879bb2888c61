"""Training data: the walkthrough's eight sentences, and generated or TinyStories stories for word prediction."""
