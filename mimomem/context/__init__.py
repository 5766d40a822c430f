"""Context assembly: what reaches the agent's context window, within token budgets."""
