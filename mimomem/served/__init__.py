"""What a hook answers with: the saved plan read back, a prompt's and a new session's context from it.

Every prompt runs the hook as a new process, so each import here is paid on every prompt:
:data:`mimomem.layers.SERVED` names the modules this room may import (tests/test_layers_served.py
reads them from the files).  Building a plan - reading the tree, the curated store, the entry
cache - is the slow side, in :mod:`mimomem.context`, which imports this room, never the reverse.
"""
