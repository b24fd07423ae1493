"""The declared family's pairwise unit: a judge reads two outputs to the same prompt and says
which is better (or a tie, optionally by a margin on a declared scale), and the benchmark
publishes a Bradley-Terry rating from those judgments beside its rubric boards.

- config.py   the `[pairwise]` table of benchmark.toml (what it measures, its judgments file,
              margins, the rating's scale and anchors, the gate, the bootstrap).
- records.py  one JSONL line per judgment (models.py's sibling); its schema is published.
- validate.py every rule across a judgment, the configuration and the other records.
- fit.py      Bradley-Terry by maximum likelihood (scipy), and the seeded, vectorised bootstrap.
- compute.py  the boards: ratings, intervals, rank ranges, counts, the win-rate matrix, position
              bias, the comparison graph's parts.
- pages.py    the pages and downloads.

The rubric unit never imports this package; it is loaded only when `[pairwise]` is declared.
"""
