"""What the published story models compute on the validation stories: numpy and torch only, no presentation."""

from ....published.storyfiles import CHECKPOINT_FILES

# Part III measures the story models of its story-models folder (compute.published.story: load, verified,
# story_corpus), an author's where `./build --story-models` names one: the build stamp of a lesson that imports
# these measurements follows those files there (sitebuild.pages.stamps); Part 2B and the lab, which read the
# published models alone, import none of them and keep theirs.
STORY_MODEL_FILES = CHECKPOINT_FILES
