"""NextChapterBench (seed 001): chapter continuations judged by one judge beside a frozen
reference chapter, hidden continuity traps, a mechanical memorisation screen, effort variants.

In progress: the contract (models.py), the scoring rules (scoring.py) and the memorisation
screen (screen.py) are here and tested; the family is not yet registered in
sitegen.families, so it has no pages yet.
"""
