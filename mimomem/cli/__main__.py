"""``python -m mimomem.cli`` runs the CLI (as ``python -m mimomem`` does)."""

import sys

from mimomem.cli import main

sys.exit(main())
