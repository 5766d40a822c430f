"""Write-back passes: ``dream``, ``distill`` and ``checkpoint``, deterministic first, a model optional.

- ``base``: the pass context (where, history, window), planned changes, the report;
- ``dream``, ``distill``, ``checkpoint``: the deterministic passes;
- ``memory_doc``: MEMORY.md as sections of items (dedup, caps, spill-over);
- ``wording``: dated, sourced lines and absolute dates;
- ``prompts``: ``--emit-prompt``, instructions and evidence for the host agent's model;
- ``model``: the same prompt sent to an OpenAI-compatible endpoint, its answer checked.
"""
