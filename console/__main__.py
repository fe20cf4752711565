"""``python -m console``: the local table."""

from .app import main

raise SystemExit(main())
