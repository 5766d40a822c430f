"""Helpers shared by the tree and the curated store: atomic files and locks, frontmatter, secrets."""
