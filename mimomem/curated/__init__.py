"""Curated memory: one Markdown file per memory, ROOT.md and index.md compiled from frontmatter.

The store behind recall / remember / forget / inspect and the tiered injection text.
"""
