"""The memory floor: what the front ends (CLI, MCP server, hooks) call, and nothing more.

- :mod:`~mimomem.memory.search`: the one memory search (tree and curated, one result type, one rule set);
- :mod:`~mimomem.memory.writes`: the one writer API (``note``, ``write``, ``remember``, ``forget``) by one
  writer identity (:class:`~mimomem.tree.writer.Writer`, handed whole to the tree's write gate);
- :mod:`~mimomem.memory.targets`: where a write goes (the layer shortcuts every front end takes);
- :mod:`~mimomem.memory.carry`: what a session carries forward (the transcript's digest into the notes,
  promotion into project memory), as the hooks call it.

The caller's place (:class:`~mimomem.tree.where.Where`) and the writer are the tree's; they sit under
context assembly and the passes, which need them too.  Nothing is imported here: the per-prompt hook imports
this floor, and each module keeps its heavy imports inside the functions that need them.
"""
