"""Curated memory: one Markdown file per memory, ROOT.md and index.md compiled from frontmatter.

The store behind recall / remember / forget / inspect and the tiered injection text.
``store`` holds ``CuratedMemory``, which ties the other modules together, one job each:
``memory`` (the memory and result types, the frontmatter mapping), ``ids`` (memory ids and
slugs), ``roots`` (one root on disk: files, lock, change detection, hit counts), ``ranking``
(the score and the exact top k), ``dedup`` (near-duplicate refusal), ``writing`` (the steps of
one write), ``transaction`` (one all-or-nothing write, and the repair after a writer killed
half-way), ``undo`` (the undo log of a write, full-disk errors), ``render`` (compiled
outlines), ``inspection`` (the self-check), ``importer`` (bulk items and notes) and
``injection`` (the text put in a model's context).
"""
