"""`python -m sitebuild.audit [--list] [PAGE ...]`: the comparison audit alone (sitebuild.audit.check)."""
from sitebuild.audit.check import main

raise SystemExit(main())
