"""``python -m dl2sql`` runs the command line."""
import sys

from dl2sql.cli import main

sys.exit(main())
