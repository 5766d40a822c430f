"""The memory floor: what the front ends (CLI, MCP server, hooks) call, and nothing more.

- :mod:`~mimomem.memory.search`: the one memory search (tree and curated, one result type, one rule set);
- :mod:`~mimomem.memory.writes`: the one writer API (``note``, ``write``, ``remember``, ``forget``) by one
  writer identity (:class:`~mimomem.memory.writes.Writer`);
- :mod:`~mimomem.memory.targets`: where a write goes (the layer shortcuts every front end takes);
- :mod:`~mimomem.memory.carry`: what a session carries forward (the transcript's digest into the notes,
  promotion into project memory), as the hooks call it.

The caller's identity (:class:`~mimomem.tree.where.Where`) is the tree's; it sits under context
assembly and the passes, which need it too.  Nothing is imported here: the per-prompt hook imports
this floor, and each module keeps its heavy imports inside the functions that need them.
"""
