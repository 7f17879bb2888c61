"""The story models' files, by name: the published folder holds them, and Part III reads the same names from its
story-models folder (an author's, where COMPUTE_STORY_MODELS names one). Declared here, without importing torch,
so that Part III's package can declare what it reads from its folder (sitebuild.pages.stamps)."""

CHECKPOINT_FILES = ("story-mlp.safetensors", "story-mlp.json", "story-one-head.safetensors", "story-one-head.json",
                    "story-four-head.safetensors", "story-four-head.json",
                    "story-four-head-seed1.safetensors", "story-four-head-seed1.json")
