"""ChronicleBench v1.1 (formerly SagaBench): long novels scored in five windows by a pinned
instrument, three boards never blended, a human reference band, a frozen protocol with its
amendment log (seed 000)."""

from __future__ import annotations

from sitegen.families import PythonFamily

# What `sitegen new amendment` writes for each of them, for a person to replace (the entry's
# fields beyond the core's: models.AmendmentMeta).
AMENDMENT_FIELDS = (
    ("timing", "when, relative to the run (for example mid-generation)"),
    ("directed_by", "who directed it: owner | owner-approved | maintainers"),
    ("scope", "operational only | methodology | reporting | branding only"),
)

_M = "sitegen.families.chronicle"
# content/chronicle/ (the protocol and the amendment log) is this family's input. Its three
# boards are never blended, so no aggregate across them may be published either.
FAMILY = PythonFamily("chronicle", "ChronicleBench", ("data/chronicle/", "content/chronicle/"), "chronicle",
                      f"{_M}.validate:load_chronicle", f"{_M}.compute:compute", f"{_M}.pages:outputs",
                      f"{_M}.models:ARTIFACT_KINDS", AMENDMENT_FIELDS, f"{_M}.published:check_log", forbids_aggregate=True)
