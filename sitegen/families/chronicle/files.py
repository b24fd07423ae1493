"""The family's input files, by their path in a site repository."""

COHORT_FILE = "data/chronicle/cohort.json"
RUNS_FILE = "data/chronicle/runs.jsonl"
REFERENCE_FILE = "data/chronicle/reference.jsonl"
ARCHIVE_FILE = "data/chronicle/archive-v1.0.json"
SELECTION_FILE = "data/chronicle/selection.json"
PROTOCOL_DOC = "content/chronicle/protocol.md"
