"""ChronicleBench's protocol enforced: section 6, the standing procedure for adding a model;
the pinned slugs and providers and uniform parameters of sections 1 and 2; the claims of
section 8 about a board of one and a loss.

- "No partial cohorts on any headline board": an entrant ranks only when its runs hold the full
  protocol (both arms for a model, every brief, every replicate; a failed run is on record and
  counts). Otherwise it is unranked on every board, with the runs it lacks.
- "The entire cohort the model joins must be on the same instrument": every cohort on the boards'
  instrument, every score file recording its instrument.
- "They never silently appear inside an existing cohort's table": a run stands in its entrant's
  cohort and was generated on or before the day that cohort landed; boards mark the entrants of a
  later cohort.
- "The public methodology footnote is updated in the same change that adds the model": the
  protocol page lists every cohort and its entrants from the cohort record, and its version
  history from the freeze record.

- Section 1: "Moving latest/alias slugs are prohibited". Section 2: "provider: { only: [pinned],
  allow_fallbacks: false } ... A pinned-provider failure is a recorded failure, not a silent
  reroute"; "temperature 0.8 where the endpoint supports it" (else params_transformed).
- Section 8: "#1 full-novel system only after real system competitors are tested"; "Chronicle
  losses publish exactly like any other loss".

Each expectation is computed here from the raw files, not from sitegen's code.
"""

from __future__ import annotations

import csv
import json
import re
from pathlib import Path

import pytest
from conftest import read_jsonl, set_words
from test_chronicle import COHORT_REL, FREEZE_REL, PROTOCOL_REL, REFS_REL, RUNS_REL, build_site, chronicle_only, problems, read_json, write_json

from sitegen.fingerprint import text_fingerprint

ADDED = "cohere/command-a-2"


@pytest.fixture
def chron(tmp_path: Path) -> Path:
    return chronicle_only(tmp_path / "site")


def write_runs(root: Path, runs: list[dict]) -> None:
    (root / RUNS_REL).write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in runs), encoding="utf-8")


def runs_of(root: Path) -> list[dict]:
    return [rec for _, rec in read_jsonl(root, RUNS_REL)]


def read_csv(path: Path) -> dict[str, dict[str, str]]:
    with path.open(encoding="utf-8", newline="") as f:
        return {r["entrant"]: r for r in csv.DictReader(f)}


def page_text(path: Path) -> str:
    """What a reader sees of a page: tags as spaces, runs of space as one, none before punctuation."""
    text = re.sub(r"<[^>]+>", " ", path.read_text(encoding="utf-8"))
    return re.sub(r" ([,.;:)])", r"\1", re.sub(r"\s+", " ", text)).replace("&amp;", "&")


def required(cohort: dict, entrant: dict) -> set[tuple[str, str, int]]:
    arms = ["system"] if entrant["kind"] == "system" else ["free-run", "sustained"]
    return {(arm, b["id"], rep) for arm in arms for b in cohort["briefs"] for rep in range(1, cohort["replicates"] + 1)}


def test_the_demo_holds_the_full_protocol_for_every_ranked_entrant(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    runs = runs_of(built_site.root)
    for e in cohort["entrants"]:
        have = {(r["arm"], r["brief"], r["replicate"]) for r in runs if r["entrant"] == e["id"]}
        complete = required(cohort, e) <= have
        assert complete == (e["status"] == "active"), e["id"]  # the withdrawn models ran part of it (A4)
    assert len(required(cohort, {"kind": "model"})) == 12 and len(required(cohort, {"kind": "system"})) == 6


def test_an_entrant_short_of_the_full_protocol_ranks_on_no_board_and_its_missing_runs_are_named(chron):
    runs = runs_of(chron)
    kept = [r for r in runs if r["entrant"] == ADDED][:2]  # 2 of its 12 runs, as in the reported fault
    assert [r["arm"] for r in kept] == ["free-run", "free-run"]
    # a run that failed stays on record and counts: a guard abort does not make Grok 5 partial
    failed = next(r for r in runs if r["entrant"] == "x-ai/grok-5" and r["arm"] == "sustained")
    failed["stop_reason"] = "budget-guard"
    write_runs(chron, [r for r in runs if r["entrant"] != ADDED or r in kept])
    out = build_site(chron)

    cohort = read_json(chron, COHORT_REL)
    missing = sorted(required(cohort, {"kind": "model"}) - {(r["arm"], r["brief"], r["replicate"]) for r in kept})
    assert len(missing) == 10
    for board in ("sustained", "voluntary"):
        rows = read_csv(out / f"chronicle/boards/{board}.csv")
        row = rows[ADDED]
        assert (row["rank_best"], row["rank_worst"], row["unranked_reason"]) == ("", "", "partial-cohort"), board
        assert row["missing_runs"] == "; ".join(f"{a}/{b}/{k}" for a, b, k in missing)
        assert rows["x-ai/grok-5"]["rank_best"] != "" and rows["x-ai/grok-5"]["unranked_reason"] == ""
        # no ranked row counts it: the rank ranges run over the ranked rows alone
        ranked = [r for r in rows.values() if r["rank_best"]]
        assert max(int(r["rank_worst"]) for r in ranked) <= len(ranked)
        text = page_text(out / f"chronicle/boards/{board}/index.html")
        assert "Command A 2 not ranked: partial cohort, 2 of the 12 runs the protocol asks for (missing: free-run B2 replicate 3; free-run N1 replicate 1;" in text
    # it has no sustained run at all and is still a row of that board, with 0 runs
    assert read_csv(out / "chronicle/boards/sustained.csv")[ADDED]["runs"] == "0"
    # the runs it has are still published
    for r in kept:
        assert (out / f"chronicle/runs/{r['id']}/index.html").is_file()


def test_a_cohort_or_a_score_on_another_instrument_is_refused(chron):
    cohort = read_json(chron, COHORT_REL)
    cohort["cohorts"][1]["instrument"] = "obr-v2.2-2026-09-20"
    write_json(chron, COHORT_REL, cohort)
    runs = runs_of(chron)
    runs[0]["instrument"] = "obr-v2.2-2026-09-20"
    write_runs(chron, runs)
    lines = (chron / REFS_REL).read_text(encoding="utf-8").splitlines()
    ref = json.loads(lines[0])
    ref["instrument"] = "obr-v2.0"
    lines[0] = json.dumps(ref, ensure_ascii=False)
    (chron / REFS_REL).write_text("\n".join(lines) + "\n", encoding="utf-8")

    found = {(p.file, p.line, p.path) for p in problems(chron)}
    assert (COHORT_REL, None, "$.cohorts[1].instrument") in found
    assert (RUNS_REL, 1, "$.instrument") in found
    assert (REFS_REL, 1, "$.instrument") in found
    # Command A 2's runs are scored on the board's instrument but its cohort is not: each is refused
    added = [i for i, r in enumerate(runs, 1) if r["entrant"] == ADDED]
    assert {(RUNS_REL, i, "$.instrument") for i in added} <= found


def test_a_score_file_without_its_instrument_is_refused(chron):
    runs = runs_of(chron)
    del runs[3]["instrument"]
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, 4, "$.instrument")


def test_a_model_moved_into_an_older_cohort_is_refused_by_its_call_dates(chron):
    cohort = read_json(chron, COHORT_REL)
    for e in cohort["entrants"]:
        if e["id"] == ADDED:
            e["cohort"] = "v1.1"
    write_json(chron, COHORT_REL, cohort)
    runs = runs_of(chron)
    for r in runs:
        if r["entrant"] == ADDED:
            r["cohort"] = "v1.1"
    write_runs(chron, runs)
    found = problems(chron)
    # the first cohort now has a fifteenth model, which the protocol's run arithmetic does not
    [plan] = [p for p in found if p.file == COHORT_REL]
    assert (plan.path, plan.found) == ("$.entrants", "15") and plan.expected.startswith("14 models in the first cohort, as the frozen protocol's run arithmetic states")
    got = [p for p in found if p is not plan]
    added = {i for i, r in enumerate(runs, 1) if r["entrant"] == ADDED}
    assert {p.line for p in got} == added and len(got) == len(added) == 12
    for p in got:
        assert p.path == "$.calls[0].timestamp" and "on or before 2026-08-21, the day cohort v1.1 landed" in p.expected
        assert p.found.startswith("2026-09-30T")


def test_a_run_outside_its_entrants_cohort_is_refused(chron):
    runs = runs_of(chron)
    i = next(k for k, r in enumerate(runs) if r["entrant"] == "x-ai/grok-5")
    runs[i]["cohort"] = "v1.1-add-2026-10"
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.file, p.line, p.path) == (RUNS_REL, i + 1, "$.cohort") and "'v1.1', the cohort x-ai/grok-5 joined with" in p.expected


def test_cohorts_out_of_date_order_or_before_the_freeze_are_refused(chron):
    cohort = read_json(chron, COHORT_REL)
    cohort["cohorts"][1]["date"] = "2026-08-20"
    write_json(chron, COHORT_REL, cohort)
    found = {(p.file, p.path) for p in problems(chron)}
    assert (COHORT_REL, "$.cohorts[1].date") in found
    cohort["cohorts"][1]["date"] = "2026-10-02"
    cohort["cohorts"][0]["date"] = "2026-08-20"  # the protocol froze on 2026-08-21
    write_json(chron, COHORT_REL, cohort)
    found = {(p.file, p.path) for p in problems(chron)}
    assert (COHORT_REL, "$.cohorts[0].date") in found


def test_boards_mark_the_entrants_of_a_later_cohort_and_the_protocol_page_lists_every_cohort(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    first = cohort["cohorts"][0]["id"]
    later = {e["id"]: e for e in cohort["entrants"] if e["cohort"] != first}
    assert list(later) == [ADDED]
    dates = {k["id"]: k["date"] for k in cohort["cohorts"]}
    for board in ("sustained", "voluntary"):
        page = (built_site.out / f"chronicle/boards/{board}/index.html").read_text(encoding="utf-8")
        rows = re.findall(r"<tr id=\"[^\"]+\">.*?</tr>", page, re.S)
        marked = [r for r in rows if "added 20" in r]
        assert len(marked) == 1 and "Command A 2" in marked[0]
        assert f'href="../../cohorts/#{later[ADDED]["cohort"]}"' in marked[0] and f"added {dates[later[ADDED]['cohort']]}" in marked[0]
        assert read_csv(built_site.out / f"chronicle/boards/{board}.csv")[ADDED]["cohort"] == later[ADDED]["cohort"]
    text = page_text(built_site.out / "chronicle/protocol/index.html")
    listing = text[text.index("Cohorts run under this protocol"):]
    for k in cohort["cohorts"]:
        assert f"Cohort {k['id']}, {k['date']}" in listing
        for e in cohort["entrants"]:
            if e["cohort"] == k["id"]:
                assert e["name"] in listing.split(f"Cohort {k['id']},")[1].split("Cohort ")[0], (k["id"], e["name"])


def test_after_a_freeze_bump_the_protocol_page_states_the_version_in_force_and_its_history(chron):
    doc = chron / PROTOCOL_REL
    doc.write_text(doc.read_text(encoding="utf-8") + "\nA corrected sentence, frozen again.\n", encoding="utf-8")
    freeze = read_json(chron, FREEZE_REL)
    item = freeze["items"][0]
    item["history"].append({"version": "v1.1.9", "fingerprint": text_fingerprint(doc.read_bytes()),
                            "frozen_at": "2026-10-01T08:00:00Z", "note": "Typo corrected; no rule changed."})
    write_json(chron, FREEZE_REL, freeze)
    out = build_site(chron)
    text = page_text(out / "chronicle/protocol/index.html")
    assert "version in force v1.1.9, frozen 2026-10-01T08:00:00Z" in text
    history = text[text.index("Frozen versions of this document"):text.index("Cohorts run under this protocol")]
    new = item["history"][-1]
    assert history.index("v1.1 2026-08-21T06:00:00Z") < history.index("v1.1.1 2026-09-02T09:00:00Z") < history.index(
        f"v1.1.9 (in force) 2026-10-01T08:00:00Z {new['fingerprint'][:12]} Typo corrected; no rule changed.")


# --------------------------------------------------------------------------- sections 1 and 2


def test_a_call_served_by_another_provider_than_the_pinned_one_is_refused(chron):
    cohort = read_json(chron, COHORT_REL)
    pinned = {e["id"]: e["provider"] for e in cohort["entrants"]}
    runs = runs_of(chron)
    i = next(k for k, r in enumerate(runs) if len(r["calls"]) > 2 and r["arm"] == "sustained")
    runs[i]["calls"][2]["returned_provider"] = "fallback-host"
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.file, p.line, p.path, p.found) == (RUNS_REL, i + 1, "$.calls[2].returned_provider", '"fallback-host"')
    assert p.expected.startswith(f"{pinned[runs[i]['entrant']]!r}, the provider {runs[i]['entrant']} is pinned to")


@pytest.mark.parametrize("params,path", [({"temperature": 1.2}, "$.calls[0].params.temperature"),
                                         ({"temperature": None}, "$.calls[0].params")])
def test_a_model_call_at_another_temperature_or_with_none_unexplained_is_refused(chron, params, path):
    runs = runs_of(chron)
    i = next(k for k, r in enumerate(runs) if "temperature" in r["calls"][0]["params"])
    call = runs[i]["calls"][0]
    for key, value in params.items():
        if value is None:
            del call["params"][key]
        else:
            call["params"][key] = value
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.line, p.path) == (i + 1, path)
    # the demo's calls without a temperature say that the endpoint refused it, and the system's are its own
    assert all(c["params"].get("temperature") == read_json(chron, COHORT_REL)["temperature"] or c["params"].get("params_transformed") is True
               for r in runs_of(chron) if r["arm"] != "system" for c in r["calls"][1:])


def test_no_model_run_goes_past_the_hard_word_cap_and_a_run_stopped_by_it_ends_on_it(chron):
    """Section 2: "a hard word cap of 94,000, below the 95K eligibility ceiling": a model run with
    more words than the cap, or one said to stop at the cap short of it, contradicts the harness."""
    cap = read_json(chron, COHORT_REL)["hard_cap_words"]
    runs = runs_of(chron)
    capped = [k for k, r in enumerate(runs) if r["stop_reason"] == "cap"]
    assert capped and all(runs[k]["words"] == cap for k in capped)  # the demo's capped runs end on the cap
    over = next(k for k, r in enumerate(runs) if r["arm"] == "sustained" and r["stop_reason"] == "word-target")
    set_words(runs[over], cap + 500)  # still within the 95,000-word band: only the cap is broken
    set_words(runs[capped[0]], cap - 1_000)
    write_runs(chron, runs)
    found = sorted((p.line, p.path) for p in problems(chron))
    assert found == sorted([(over + 1, "$.words"), (capped[0] + 1, "$.stop_reason")]), found


def test_the_hard_word_cap_is_the_one_the_frozen_protocol_states(chron):
    cohort = read_json(chron, COHORT_REL)
    cohort["hard_cap_words"] = 95_000
    write_json(chron, COHORT_REL, cohort)
    found = problems(chron)
    [p] = [p for p in found if p.file == COHORT_REL]
    assert (p.path, p.found) == ("$.hard_cap_words", "95000") and "94000" in p.expected, p
    # and the runs the harness stopped at 94,000 are held to the cap as stated, which they do not reach
    capped = {k + 1 for k, r in enumerate(runs_of(chron)) if r["stop_reason"] == "cap"}
    assert {(q.file, q.line, q.path) for q in found if q is not p} == {(RUNS_REL, k, "$.stop_reason") for k in capped}


def test_the_instrument_and_its_judge_are_the_ones_the_frozen_protocol_states(chron):
    """Section 3a pins the instrument's hash and names its judge: a cohort record naming another
    judge (which the home page would publish) or another hash is refused at its key."""
    cohort = read_json(chron, COHORT_REL)
    cohort["instrument"]["judge"] = "GPT-5.6 Sol"
    cohort["instrument"]["id"] = "obr-v2.2-2026-09-20"
    write_json(chron, COHORT_REL, cohort)
    found = {p.path: p for p in problems(chron) if p.file == COHORT_REL and p.path.startswith("$.instrument.")}
    assert set(found) == {"$.instrument.judge", "$.instrument.id"}, found
    assert found["$.instrument.judge"].expected.startswith("'Claude Sonnet 4.6', as the frozen protocol states (content/chronicle/protocol.md:")
    assert found["$.instrument.judge"].found == '"GPT-5.6 Sol"'
    assert found["$.instrument.id"].expected.startswith("'obr-v2.1-2026-03-08', as the frozen protocol states")


def test_a_free_run_ends_at_the_models_own_stop_and_a_word_target_is_reached(chron):
    """Section 2: a free run is continued "only while `finish=length`", and a sustained run
    "until ≥85,000 words": a free run continued after the model stopped, one said to stop
    voluntarily whose last call hit the limit, and a run said to reach the target short of it
    are each refused."""
    runs = runs_of(chron)
    free = [k for k, r in enumerate(runs) if r["arm"] == "free-run" and len(r["calls"]) >= 2]
    continued, mislabelled = free[0], free[1]
    runs[continued]["calls"][0]["finish"] = "stop"  # and yet a second call followed
    runs[mislabelled]["calls"][-1]["finish"] = "length"
    short = next(k for k, r in enumerate(runs) if r["arm"] == "sustained" and r["stop_reason"] == "word-target")
    set_words(runs[short], 84_000)  # within the 80,000-word band: only the target is broken
    write_runs(chron, runs)
    found = {(p.line, p.path): p for p in problems(chron) if p.file == RUNS_REL}
    assert set(found) == {(continued + 1, "$.calls[0].finish"), (mislabelled + 1, "$.stop_reason"), (short + 1, "$.words")}, found
    assert "a free run is continued only while a call ends at the length limit" in found[(continued + 1, "$.calls[0].finish")].expected
    assert found[(short + 1, "$.words")].expected.startswith("at least 85,000 words, the word target the frozen protocol sets")
    assert found[(short + 1, "$.words")].found == "84,000"


@pytest.mark.parametrize("alias", ["x-ai/grok-latest", "openrouter/auto", "x-ai/grok.latest"])
def test_a_moving_alias_slug_is_refused(chron, alias):
    cohort = read_json(chron, COHORT_REL)
    i = next(k for k, e in enumerate(cohort["entrants"]) if e["id"] == "x-ai/grok-5")
    cohort["entrants"][i]["id"] = alias
    write_json(chron, COHORT_REL, cohort)
    runs = runs_of(chron)
    for r in runs:
        if r["entrant"] == "x-ai/grok-5":
            r["entrant"] = alias
            for call in r["calls"]:
                call["returned_model"] = alias
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.file, p.path, p.found) == (COHORT_REL, f"$.entrants[{i}].id", json.dumps(alias))


# --------------------------------------------------------------------------- section 8


def test_a_board_with_one_entrant_names_it_as_the_only_one_tested_never_first(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    alone = [b for b in cohort["boards"] if len({e["id"] for e in cohort["entrants"] if e["status"] == "active"
                                                  and (e["kind"] == "system") == (b["arm"] == "system")}) == 1]
    assert [b["id"] for b in alone] == ["system"]
    home = page_text(built_site.out / "index.html")
    assert "Board 1: Complete-novel system entrants — Only entrant tested: Chronicle, with no competitor on this board" in home
    assert "Board 2: Sustained model + standard harness — First:" in home or "Board 2: Sustained model + standard harness — Tied for first:" in home
    board = page_text(built_site.out / "chronicle/boards/system/index.html")
    assert "Chronicle is the only entrant tested on this board: its rank is against no competitor" in board
    assert "Chronicle (the only entrant tested: no competitor)" in page_text(built_site.out / "chronicle/index.html")
    for other in ("sustained", "voluntary"):
        assert "is the only entrant" not in page_text(built_site.out / f"chronicle/boards/{other}/index.html")


def test_a_chronicle_loss_still_publishes_the_exhibit_and_its_link(chron):
    runs = runs_of(chron)
    band = read_json(chron, COHORT_REL)["eligibility"]
    for r in runs:
        if r["arm"] == "system":
            set_words(r, band["min_words"] - 4_000)  # still five windows; below the band: a DNF
    write_runs(chron, runs)
    out = build_site(chron)
    board = read_csv(out / "chronicle/boards/system.csv")["chronicle/chronicle-engine"]
    assert (board["rank_best"], board["unranked_reason"], board["eligible_runs"]) == ("", "DNF", "0")
    exhibit = page_text(out / "chronicle/exhibit/index.html")
    base = sum(1 for r in runs if r["entrant"] == "anthropic/claude-sonnet-4.6" and r["arm"] == "sustained"
               and band["min_words"] <= r["words"] <= band["max_words"])
    assert (f"No difference can be computed: Chronicle has no run inside the eligibility band (every one a DNF); "
            f"Claude Sonnet 4.6 has {base} eligible runs.") in exhibit
    assert 'href="exhibit/"' in (out / "chronicle/index.html").read_text(encoding="utf-8")
    rows = read_csv(out / "chronicle/exhibit.csv")
    assert rows["chronicle/chronicle-engine"]["difference"] == "" and rows["chronicle/chronicle-engine"]["eligible_runs"] == "0"


# --------------------------------------------------------------------------- section 3a: the judging evidence


def test_caps_are_on_the_run_pages_counted_on_the_boards_and_every_judge_run_downloadable(built_site):
    from test_chronicle import ref_eligible, weights_by_profile

    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = runs_of(built_site.root)
    binding: dict[tuple[str, str], int] = {}
    judge_rows = 0
    for r in runs:
        caps_here = []
        for w in r["windows"]:
            for i, jr in enumerate(w["runs"], start=1):
                judge_rows += 1
                raw = 10.0 * sum(weights[jr["profile"]][d] * s for d, s in jr["dimensions"].items())
                if jr.get("cap"):
                    caps_here.append((w["window"], i, jr["cap"]["reason"]))
                    if jr["cap"]["value"] < raw and ref_eligible(r, cohort):
                        binding[(r["arm"], r["entrant"])] = binding.get((r["arm"], r["entrant"]), 0) + 1
        page = page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
        if caps_here:
            for window, i, reason in caps_here:
                assert f"{window}, run {i}: cap" in page and f"Reason: {reason}" in page, (r["id"], window, i)
        else:
            assert "No cap is recorded on this run." in page
    assert sum(binding.values()) > 0
    for board, arm in (("system", "system"), ("sustained", "sustained")):
        rows = read_csv(built_site.out / f"chronicle/boards/{board}.csv")
        for eid, row in rows.items():
            assert int(row["capped_judge_runs"]) == binding.get((arm, eid), 0), (board, eid)
        page = (built_site.out / f"chronicle/boards/{board}/index.html").read_text(encoding="utf-8")
        for eid, row in rows.items():
            n = int(row["capped_judge_runs"])
            tr = re.search(rf'<tr id="[^"]+">(?:(?!</tr>).)*?{re.escape(row["name"])}(?:(?!</tr>).)*</tr>', page, re.S).group(0)
            assert (f">{n} capped</span>" in tr) == (n > 0), (board, eid)
    with (built_site.out / "chronicle/judge-runs.csv").open(encoding="utf-8", newline="") as f:
        assert sum(1 for _ in csv.DictReader(f)) == judge_rows


def test_a_score_over_fewer_windows_is_marked_where_it_is_shown(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    n = len(cohort["windows"])
    partial = [r for r in runs_of(built_site.root) if len(r["windows"]) < n]
    assert partial
    listing = (built_site.out / "chronicle/cohorts/index.html").read_text(encoding="utf-8")
    for r in partial:
        row = re.search(rf'<tr id="[^"]+"><th scope="row"><a [^>]*>{re.escape(r["id"])}</a>.*?</tr>', listing).group(0)
        assert f"({len(r['windows'])} of {n} windows)" in row
        page = page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
        assert f"{len(r['windows'])} of {n} windows: not comparable with a {n}-window score" in page
    whole = next(r for r in runs_of(built_site.root) if len(r["windows"]) == n)
    assert "windows: not comparable" not in page_text(built_site.out / f"chronicle/runs/{whole['id']}/index.html")


# --------------------------------------------------------------------------- the amendment log, all at once


def test_every_problem_of_the_log_is_reported_at_once_not_in_rounds(chron):
    """A broken entry used to hide its other faults (and a broken protocol front matter every
    date check) until the first was fixed: 3 problems, then 1, then 3."""
    from test_chronicle import AMEND_DIR, set_front

    set_front(chron / AMEND_DIR / "A5.md", "scope", "administrative")  # the entry is now invalid...
    set_front(chron / AMEND_DIR / "A5.md", "date", "2026-08-01")  # ...and dated before the freeze
    set_front(chron / AMEND_DIR / "A3.md", "timing", "FILL IN: when")  # invalid...
    set_front(chron / AMEND_DIR / "A3.md", "id", "A2")  # ...and reusing A2's id, in a file named A3.md
    set_front(chron / PROTOCOL_REL, "status", "DRAFT")  # the protocol's front matter broken too
    set_front(chron / AMEND_DIR / "A4.md", "date", "2026-08-02")  # a valid entry dated before the freeze
    got = {(p.file, p.path.removeprefix("$.")) for p in problems(chron)}
    a = lambda n: f"{AMEND_DIR}/{n}.md"  # noqa: E731
    assert {(a("A5"), "scope"), (a("A5"), "date"), (a("A3"), "timing"), (a("A3"), "id"), (a("A4"), "date"),
            (PROTOCOL_REL, "status")} <= got, sorted(got)
    ids = sorted(p.expected for p in problems(chron) if p.file == a("A3") and p.path == "id")
    assert ids == [f"a unique id (A2 is also {a('A2')})", "the file's name (A2.md)"]


# --------------------------------------------------------------------------- section 2: the harness by hash


def test_every_run_records_its_template_and_brief_and_a_different_one_is_refused(chron):
    cohort = read_json(chron, COHORT_REL)
    briefs = {b["id"]: b["sha256"] for b in cohort["briefs"]}
    runs = runs_of(chron)
    assert all(r["brief_sha256"] == briefs[r["brief"]] for r in runs)
    assert all(r["template_sha256"] == cohort["template_sha256"] for r in runs if r["arm"] != "system")
    model = next(i for i, r in enumerate(runs) if r["arm"] == "sustained")
    system = next(i for i, r in enumerate(runs) if r["arm"] == "system")
    other = "ab" * 32
    runs[model]["template_sha256"] = other
    runs[model + 1]["brief_sha256"] = other
    runs[system]["template_sha256"] = other  # a system runs its own commission: recorded, not compared
    write_runs(chron, runs)
    got = sorted((p.line, p.path) for p in problems(chron))
    assert got == sorted([(model + 1, "$.template_sha256"), (model + 2, "$.brief_sha256")])


def test_the_run_pages_and_the_runs_download_carry_the_hashes(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    with (built_site.out / "chronicle/runs.csv").open(encoding="utf-8", newline="") as f:
        rows = {r["run"]: r for r in csv.DictReader(f)}
    for r in runs_of(built_site.root):
        assert (rows[r["id"]]["template_sha256"], rows[r["id"]]["brief_sha256"], rows[r["id"]]["instrument"]) == \
            (r["template_sha256"], r["brief_sha256"], r["instrument"])
    r = runs_of(built_site.root)[0]
    page = page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
    assert f"Template SHA-256 {r['template_sha256']}" in page and f"Brief SHA-256 {r['brief_sha256']}" in page
    protocol = page_text(built_site.out / "chronicle/protocol/index.html")
    assert f"the frozen generation template {cohort['template_sha256']} for every model run" in protocol


# --------------------------------------------------------------------------- section 2: failures, errors and reruns


def test_a_rerun_is_allowed_once_after_an_infrastructure_failure_before_any_content(chron):
    runs = runs_of(chron)
    i = next(k for k, r in enumerate(runs) if r.get("superseded"))
    j = next(k for k, r in enumerate(runs) if k > i and r.get("superseded"))
    first = runs[i]["superseded"][0]
    runs[i]["superseded"].append(dict(first, request_id="gen-second"))  # rerun twice
    runs[j]["superseded"][0]["words"] = 1200  # content had arrived: a cherry-pick, not an infrastructure rerun
    runs[j]["superseded"][0]["params"] = {**runs[j]["superseded"][0]["params"], "temperature": 1.0}  # other parameters
    runs[j]["superseded"][0]["timestamp"] = runs[j]["calls"][-1]["timestamp"]  # after the rerun began
    runs[j]["superseded"][0]["documented_by"] = "A99"
    write_runs(chron, runs)
    got = sorted((p.line, p.path) for p in problems(chron))
    assert got == sorted([(i + 1, "$.superseded"), (j + 1, "$.superseded[0].words"), (j + 1, "$.superseded[0].params"),
                          (j + 1, "$.superseded[0].timestamp"), (j + 1, "$.superseded[0].documented_by")])


@pytest.mark.parametrize("finish,message", [("error", None), ("stop", "an explanation nobody asked for")])
def test_an_error_or_a_refusal_carries_its_message_and_nothing_else_does(chron, finish, message):
    runs = runs_of(chron)
    call = runs[0]["calls"][-1]
    call["finish"] = finish
    call.pop("message", None)
    if message is not None:
        call["message"] = message
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.line, p.path) == (1, f"$.calls[{len(runs[0]['calls']) - 1}]") and "message exactly when" in p.expected


def test_failed_attempts_errors_and_refusals_are_published_on_the_run_and_diagnostics_pages(built_site):
    runs = runs_of(built_site.root)
    rerun = [r for r in runs if r.get("superseded")]
    failed = [(r, c) for r in runs for c in r["calls"] if c["finish"] in ("error", "refusal")]
    assert rerun and failed
    diag = page_text(built_site.out / "chronicle/diagnostics/index.html")
    assert f"{len(rerun)} runs rerun after an infrastructure failure" in diag
    for r in rerun:
        a = r["superseded"][0]
        assert f"{r['id']} {a['failure']} {a['message']} {a['timestamp']}" in diag
        page = page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
        assert f"this run's first attempt died on infrastructure ({a['failure']}) at {a['timestamp']}" in page and a["message"] in page
    for r, c in failed:
        assert f"{r['id']} {c['seq']} {c['finish']} {c['message']}" in diag
        assert f"{c['finish']}: {c['message']}" in page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
    with (built_site.out / "chronicle/reruns.csv").open(encoding="utf-8", newline="") as f:
        assert [row["run"] for row in csv.DictReader(f)] == [r["id"] for r in rerun]


# --------------------------------------------------------------------------- section 3: the system's release


def test_the_systems_release_and_its_gates_are_on_board_1(built_site):
    cohort = read_json(built_site.root, COHORT_REL)
    [system] = [e for e in cohort["entrants"] if e["kind"] == "system"]
    release = system["release"]
    page = page_text(built_site.out / "chronicle/boards/system/index.html")
    assert f"Chronicle generated on {release['version']}, a release that passed its own frozen length-calibration gates on {release['frozen_on']}" in page
    with (built_site.out / "chronicle/releases.csv").open(encoding="utf-8", newline="") as f:
        rows = list(csv.DictReader(f))
    assert [r["gate"] for r in rows] == [g["id"] for g in release["gates"]]
    assert all(r["passed"] == str(g["min"] <= g["value"] <= g["max"]) == "True" for r, g in zip(rows, release["gates"]))
    for g in release["gates"]:
        assert g["description"] in page
    assert "calibration gates" not in page_text(built_site.out / "chronicle/boards/sustained/index.html")


def test_a_system_release_that_failed_a_gate_or_was_frozen_after_its_runs_is_refused(chron):
    cohort = read_json(chron, COHORT_REL)
    i = next(k for k, e in enumerate(cohort["entrants"]) if e["kind"] == "system")
    release = cohort["entrants"][i]["release"]
    release["gates"][0]["value"] = release["gates"][0]["max"] + 1
    release["frozen_on"] = "2026-08-30"  # after the system's runs of 2026-08-21
    write_json(chron, COHORT_REL, cohort)
    got = sorted(p.path for p in problems(chron))
    assert got == [f"$.entrants[{i}].release.frozen_on", f"$.entrants[{i}].release.gates[0].value"]
    del cohort["entrants"][i]["release"]
    write_json(chron, COHORT_REL, cohort)
    [p] = problems(chron)
    assert p.path == f"$.entrants[{i}]" and "a release exactly for a system entrant" in p.expected


def test_the_protocol_says_what_its_old_address_is_and_its_versions_say_when_that_changed(built_site):
    """The protocol called /protocol-v1.1.html a mirror of itself; the site serves it as a redirect.
    The text now says so, frozen again with a note, and the first version's fingerprint is still
    the one recorded before generation."""
    import tomllib

    from conftest import REPO_ROOT

    redirects = tomllib.loads((REPO_ROOT / "netlify.toml").read_text(encoding="utf-8"))["redirects"]
    assert {"from": "/protocol-v1.1.html", "to": "/chronicle/protocol/", "status": 301} in redirects
    text = page_text(built_site.out / "chronicle/protocol/index.html")
    html = (built_site.out / "chronicle/protocol/index.html").read_text(encoding="utf-8")
    in_force = html[html.index('<article class="prose">'):html.index("</article>")]
    assert "mirrored" not in in_force and "its old address on this site" in in_force
    # the first version's text, kept with its fingerprint, still says what it said
    assert "Removed: This document is the canonical methodology reference and is mirrored on this site at `/protocol-v1.1.html`;" in text
    history = read_json(built_site.root, FREEZE_REL)["items"][0]["history"]
    assert [h["version"] for h in history] == ["v1.1", "v1.1.1"] and history[0]["frozen_at"] < "2026-08-21T06:30"
    assert "version in force v1.1.1, frozen 2026-09-02T09:00:00Z" in text


# --------------------------------------------------------------------------- section 7: the reference corpus as reported


def test_the_full_distribution_is_sorted_and_the_two_corpora_are_never_pooled(built_site):
    from test_chronicle import ref_score, weights_by_profile
    import numpy as np

    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    refs = [rec for _, rec in read_jsonl(built_site.root, REFS_REL)]
    page = (built_site.out / "chronicle/reference/index.html").read_text(encoding="utf-8")
    v11 = sorted(((r, ref_score(r, weights)) for r in refs if r["corpus"] == "v1.1"), key=lambda p: (-p[1], p[0]["id"]))
    legacy = [(r, ref_score(r, weights)) for r in refs if r["corpus"] != "v1.1"]
    shown = re.findall(r'<tr><td class="n">(\d+)</td><th scope="row">([^<]+)</th>', page.split('id="n-caption"')[1].split("</table>")[0])
    assert shown == [(str(i), r["title"].replace("'", "&#39;")) for i, (r, _) in enumerate(v11, start=1)]
    with (built_site.out / "chronicle/reference-corpora.csv").open(encoding="utf-8", newline="") as f:
        corpora = {r["group"]: r for r in csv.DictReader(f)}
    for group, members, metric in (("v1.1", [s for _, s in v11], "v1.1 five-window"), ("legacy-v1.0", [s for _, s in legacy], "v1.0 four-window")):
        q1, med, q3 = np.percentile(members, [25, 50, 75])
        row = corpora[group]
        assert (int(row["novels"]), row["metric"]) == (len(members), metric)
        assert abs(float(row["median"]) - med) < 1e-9 and abs(float(row["q1"]) - q1) < 1e-9 and abs(float(row["q3"]) - q3) < 1e-9
    with (built_site.out / "chronicle/reference.csv").open(encoding="utf-8", newline="") as f:
        metric = {r["id"]: (r["metric"], r["windows"]) for r in csv.DictReader(f)}
    assert all(metric[r["id"]] == (("v1.1 five-window", "5") if r["corpus"] == "v1.1" else ("v1.0 four-window", "4")) for r in refs)
    assert "50-book" not in page_text(built_site.out / "chronicle/boards/sustained/index.html")


# --------------------------------------------------------------------------- nothing dated after the build


def test_an_entry_a_cohort_or_a_call_dated_after_the_build_is_refused_warm_as_cold(chron, monkeypatch):
    """A 2031 date used to be accepted and to date the feed. The build's date is SOURCE_DATE_EPOCH
    (or today); a result cached before the clock was set back is not used to skip the check."""
    from test_chronicle import AMEND_DIR

    from sitegen.build import build
    from sitegen.config import load_config

    out = chron.parent / "out"
    build(load_config(chron), out)  # cached with today's date
    monkeypatch.setenv("SOURCE_DATE_EPOCH", "1789776000")  # 2026-09-19T00:00:00Z: before cohort 2 and Command A 2's calls
    from sitegen.errors import InputError

    with pytest.raises(InputError) as warm_error:
        build(load_config(chron), out)  # the family's cached result would skip the check
    with pytest.raises(InputError) as cold_error:
        build(load_config(chron), chron.parent / "cold", cache=False)
    warm, cold = warm_error.value.problems, cold_error.value.problems
    assert [str(p) for p in warm] == [str(p) for p in cold] == [str(p) for p in problems(chron)]
    got = {(p.file, p.path) for p in warm}
    assert (COHORT_REL, "$.cohorts[1].date") in got
    runs = runs_of(chron)
    late = [i + 1 for i, r in enumerate(runs) if r["calls"][0]["timestamp"] > "2026-09-19T00:00:00Z"]
    assert late and {p.line for p in warm if p.file == RUNS_REL} == set(late)
    monkeypatch.delenv("SOURCE_DATE_EPOCH")
    (chron / AMEND_DIR / "A7.md").write_text("---\nid: A7\nkind: amendment\ntitle: \"Later\"\ndate: 2031-01-01\ntiming: post-scoring\n"
                                             "directed_by: owner\nscope: reporting\n---\n\nA change from the future.\n", encoding="utf-8")
    found = [p for p in problems(chron) if p.file == f"{AMEND_DIR}/A7.md"]
    assert [(p.path, p.found) for p in found] == [("date", "2031-01-01")] and "the build's date" in found[0].expected


def test_a_back_dated_entry_is_refused(chron):
    """A8 dated before A7 would land among older entries of the log (between A6 and C1)."""
    from test_chronicle import AMEND_DIR

    body = "---\nid: {id}\nkind: amendment\ntitle: \"Guards\"\ndate: {date}\ntiming: post-scoring\ndirected_by: owner\n" \
           "scope: operational only\n---\n\nText of {id}.\n"
    (chron / AMEND_DIR / "A7.md").write_text(body.format(id="A7", date="2026-09-05"), encoding="utf-8")
    (chron / AMEND_DIR / "A8.md").write_text(body.format(id="A8", date="2026-08-25"), encoding="utf-8")
    [p] = problems(chron)
    assert (p.file, p.path, p.found) == (f"{AMEND_DIR}/A8.md", "date", "2026-08-25")
    assert p.expected.startswith("a date on or after 2026-09-05, the date of A7")


# --------------------------------------------------------------------------- an append-only record


def test_a_published_entry_or_the_archive_cannot_change_or_vanish_without_a_recorded_correction(chron):
    from test_chronicle import AMEND_DIR

    freeze = read_json(chron, FREEZE_REL)
    kinds = sorted({(i["kind"], i["id"]) for i in freeze["items"]} - {("protocol", "protocol-v1.1")})
    entries = sorted(p.stem for p in (chron / AMEND_DIR).glob("*.md"))
    assert kinds == sorted([("archive", "archive-v1.0")] + [("log-entry", f"entry-{e.lower()}") for e in entries])
    # rewrite A2's figures, delete the newest entry, move a v1.0 score
    a2 = chron / AMEND_DIR / "A2.md"
    a2.write_text(a2.read_text(encoding="utf-8").replace("$250", "$275"), encoding="utf-8")
    (chron / AMEND_DIR / "R1.md").unlink()
    archive_path = chron / "data/chronicle/archive-v1.0.json"
    archive = read_json(chron, "data/chronicle/archive-v1.0.json")
    archive["rows"][0]["sagascore"] = round(archive["rows"][0]["sagascore"] - 3, 2)
    write_json(chron, "data/chronicle/archive-v1.0.json", archive)
    got = {(p.file, p.found.split(" ")[0]) for p in problems(chron)}
    assert (f"{AMEND_DIR}/A2.md", "fingerprint") in got
    assert (f"{AMEND_DIR}/R1.md", "no") in got
    assert ("data/chronicle/archive-v1.0.json", "fingerprint") in got


def test_a_correction_is_a_new_version_whose_note_names_the_later_entry_that_records_it(chron):
    from test_chronicle import AMEND_DIR

    from sitegen.fingerprint import text_fingerprint as fp

    a2 = chron / AMEND_DIR / "A2.md"
    a2.write_text(a2.read_text(encoding="utf-8").replace("$250", "$275"), encoding="utf-8")
    freeze = read_json(chron, FREEZE_REL)
    i = next(k for k, item in enumerate(freeze["items"]) if item["id"] == "entry-a2")
    freeze["items"][i]["history"].append({"version": "2", "fingerprint": fp(a2.read_bytes()), "frozen_at": "2026-09-03T10:00:00Z",
                                          "note": "A typo in the guard; see the log."})
    write_json(chron, FREEZE_REL, freeze)
    [p] = problems(chron)  # the note names no later entry
    assert (p.file, p.path) == (FREEZE_REL, f"$.items[{i}].history[1].note")
    freeze["items"][i]["history"][-1]["note"] = "Corrected by C1: the guard was $275."
    write_json(chron, FREEZE_REL, freeze)
    out = build_site(chron)
    text = page_text(out / "chronicle/protocol/index.html")
    assert "(corrected: Corrected by C1: the guard was $275.)" in text


def test_a_new_entry_is_published_as_not_yet_recorded(chron):
    from test_chronicle import AMEND_DIR

    (chron / AMEND_DIR / "A7.md").write_text("---\nid: A7\nkind: amendment\ntitle: \"Late\"\ndate: 2026-09-05\ntiming: post-scoring\n"
                                             "directed_by: owner\nscope: reporting\n---\n\nA later change.\n", encoding="utf-8")
    out = build_site(chron)
    text = page_text(out / "chronicle/protocol/index.html")
    assert "Not yet recorded, and so still open to edits: A7." in text
    assert "reporting · amendment · not yet recorded" in text


# --------------------------------------------------------------------------- section 3a: the rest of the score file


def test_the_score_files_deterministic_layer_timeline_whole_book_and_cost_are_published(built_site):
    from test_chronicle import ref_capped, weights_by_profile
    import statistics

    cohort = read_json(built_site.root, COHORT_REL)
    weights = weights_by_profile(cohort)
    runs = runs_of(built_site.root)
    with (built_site.out / "chronicle/scoring.csv").open(encoding="utf-8", newline="") as f:
        scoring = {r["run"]: r for r in csv.DictReader(f)}
    with (built_site.out / "chronicle/engagement.csv").open(encoding="utf-8", newline="") as f:
        segments = list(csv.DictReader(f))
    assert len(segments) == sum(len(r["scoring"]["engagement"]) for r in runs)
    for r in runs:
        s = r["scoring"]
        whole = statistics.median(ref_capped(j, weights) for j in s["whole_book"])
        row = scoring[r["id"]]
        assert abs(float(row["whole_book_composite"]) - whole) < 1e-9
        assert (float(row["sentence_cv"]), float(row["ai_tells_per_kw"]), float(row["scoring_cost_usd"])) == \
            (s["deterministic"]["sentence_cv"], s["deterministic"]["ai_tells_per_kw"], s["cost_usd"])
        assert s["engagement"][0]["words_from"] == 0 and s["engagement"][-1]["words_to"] == r["words"]
    r = runs[5]
    page = page_text(built_site.out / f"chronicle/runs/{r['id']}/index.html")
    from decimal import ROUND_HALF_UP, Decimal

    shown = Decimal(repr(statistics.median(ref_capped(j, weights) for j in r["scoring"]["whole_book"]))).quantize(Decimal("0.01"), ROUND_HALF_UP)
    assert f"Whole-book composite {shown}: the median of three" in page  # the site's rounding: half up, from the decimal digits
    assert f"Top issues {', '.join(r['scoring']['issues'])}" in page
    assert f"Engagement timeline: {len(r['scoring']['engagement'])} segments" in page


@pytest.mark.parametrize("fault,path", [
    (lambda s, r: s["engagement"][2].__setitem__("words_from", s["engagement"][2]["words_from"] + 1), "$.scoring.engagement[2].words_from"),
    (lambda s, r: s["engagement"][-1].__setitem__("words_to", r["words"] - 1), f"$.scoring.engagement[LAST].words_to"),
    (lambda s, r: s["engagement"][0]["tags"].append("cliffhanger"), "$.scoring.engagement[0].tags[LASTTAG]"),
    (lambda s, r: s["issues"].__setitem__(0, "too-long"), "$.scoring.issues[0]"),
    (lambda s, r: s["whole_book"][0].__setitem__("profile", "literary_v2" if s["whole_book"][0]["profile"] != "literary_v2" else "scifi_v2"),
     "$.scoring.whole_book[0].profile"),
])
def test_a_timeline_off_the_text_or_outside_the_vocabulary_is_refused(chron, fault, path):
    runs = runs_of(chron)
    s = runs[0]["scoring"]
    fault(s, runs[0])
    write_runs(chron, runs)
    path = path.replace("LASTTAG", str(len(s["engagement"][0]["tags"]) - 1)).replace("LAST", str(len(s["engagement"]) - 1))
    got = [(p.line, p.path) for p in problems(chron)]
    assert (1, path) in got, got


def test_the_shared_judge_and_the_exhibits_verdict_are_said_from_the_data(built_site, chron):
    """Section 3a: the judge shares a base model with Chronicle. The system's board and the
    exhibit say so because the cohort's judge is the exhibit's base model; the exhibit's verdict
    follows its interval's sign; with another base model neither page says it."""
    cohort = read_json(built_site.out / "raw", COHORT_REL)
    assert cohort["instrument"]["judge_slug"] == cohort["exhibit"]["base_model"]
    board = page_text(built_site.out / "chronicle/boards/system/index.html")
    exhibit = page_text(built_site.out / "chronicle/exhibit/index.html")
    assert "The judge is Chronicle's own base model." in board and "The judge is the base model." in exhibit
    with (built_site.out / "chronicle/exhibit.csv").open(encoding="utf-8", newline="") as f:
        row = next(csv.DictReader(f))
    low, high = float(row["difference_low"]), float(row["difference_high"])
    verdict = ("scores higher than its base model" if low > 0 else "scores lower than its base model" if high < 0
               else "no difference is shown")
    assert f"Verdict: Chronicle {verdict}" in exhibit or f"Verdict: {verdict}" in exhibit
    assert "in the sustained arm, on the same briefs and instrument" in exhibit
    # another base model (the judge now shares nothing with the system): neither page says it
    cohort = read_json(chron, COHORT_REL)
    cohort["exhibit"]["base_model"] = "openai/gpt-5.6-sol"
    write_json(chron, COHORT_REL, cohort)
    out = build_site(chron)
    assert "shared-judge" not in (out / "chronicle/boards/system/index.html").read_text(encoding="utf-8")
    assert "shared-judge" not in (out / "chronicle/exhibit/index.html").read_text(encoding="utf-8")


def test_the_run_arithmetic_is_the_protocols_and_the_protocol_page_reconciles_it_with_the_runs_held(built_site, chron):
    """Section 2: "14 models × 2 briefs × 6 runs = 168 scored runs": a product that does not
    hold, or a cohort record with another roster, is refused; the page reconciles the 168 with
    the runs the site holds, counted here from the raw files."""
    cohort = read_json(built_site.out / "raw", COHORT_REL)
    runs = [rec for _, rec in read_jsonl(built_site.out / "raw", RUNS_REL)]
    kind = {e["id"]: e for e in cohort["entrants"]}
    first = cohort["cohorts"][0]["id"]
    models = sum(1 for e in cohort["entrants"] if e["kind"] == "model" and e["cohort"] == first)
    planned = models * len(cohort["briefs"]) * 2 * cohort["replicates"]
    held_first = sum(1 for r in runs if r["cohort"] == first and kind[r["entrant"]]["kind"] == "model")
    text = page_text(built_site.out / "chronicle/protocol/index.html")
    assert (f"Section 2 plans {models} models × {len(cohort['briefs'])} briefs × {2 * cohort['replicates']} runs = {planned} scored runs "
            f"for the first cohort; the build holds the cohort record to that sentence. This site holds {len(runs)} runs: {held_first} of "
            f"those {planned} (the other {planned - held_first} were never run: ") in text
    for e in cohort["entrants"]:
        if e["status"] == "withdrawn":
            n = sum(1 for r in runs if r["entrant"] == e["id"])
            assert f"{e['name']} was withdrawn by {e['withdrawn_by']} after {n} of its 12" in text
    # the sentence's product must hold
    protocol = chron / PROTOCOL_REL
    protocol.write_text(protocol.read_text(encoding="utf-8").replace("= 168 scored runs", "= 170 scored runs"), encoding="utf-8")
    [p] = [p for p in problems(chron) if p.file == PROTOCOL_REL and p.expected.endswith("scored runs, the product it states")]
    assert (p.expected, p.found) == ("168 scored runs, the product it states", "170")


def test_the_tag_vocabulary_holds_every_tag_the_protocol_names_as_it_spells_it(built_site, chron):
    """Section 3a names `strong_hook`, `tension_spike`, … : a vocabulary that spells one of them
    otherwise (the runs' tags consistent with it) is refused at the vocabulary; the protocol
    page lists the vocabularies in force."""
    page = page_text(built_site.out / "chronicle/protocol/index.html")
    vocabulary = read_json(built_site.out / "raw", COHORT_REL)["vocabulary"]
    assert "The instrument's vocabularies The tags the judge may give a window of the engagement timeline (section 3a; a tag outside them " \
           f"is dropped): {', '.join(vocabulary['tags'])}." in page
    for rel in (COHORT_REL, RUNS_REL):
        path = chron / rel
        path.write_text(path.read_text(encoding="utf-8").replace('"strong_hook"', '"strong-hook"'), encoding="utf-8")
    [p] = problems(chron)
    assert (p.file, p.path) == (COHORT_REL, "$.vocabulary.tags") and p.expected.endswith(": strong_hook missing")


def test_a_run_written_wholly_by_another_model_is_refused(chron):
    """A run every call of which another model returned is not the entrant's run: refused, not
    ranked with a flag on its own page. A call returned by a dated snapshot of the pinned slug,
    as the demo's DeepSeek run has, is the pinned model's."""
    runs = runs_of(chron)
    k = next(i for i, r in enumerate(runs) if r["arm"] == "free-run" and r["entrant"] == "x-ai/grok-5")
    for call in runs[k]["calls"]:
        call["returned_model"] = "openai/gpt-5.6-sol"
    write_runs(chron, runs)
    [p] = problems(chron)
    assert (p.line, p.path, p.found) == (k + 1, "$.calls[0].returned_model", "every call returned by openai/gpt-5.6-sol")
    assert p.expected.startswith("a run written by x-ai/grok-5, the pinned slug it is entered under, in at least one call")
