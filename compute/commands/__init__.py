"""The command line's subcommands, one module each: `train` (train.py), `generate`, `check`, `bench`, `export`;
each adds its parser (`add(sub)`) and runs it (`run(args)`). They sit above the lessons: `check` reads every lesson's claims and
`train walkthrough` judges a seed by the walkthrough's."""
