"""``python -m mimomem`` runs the CLI."""

import sys

from mimomem.cli import main

sys.exit(main())
