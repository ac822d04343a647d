#!/usr/bin/python3
"""Turn run.sh's raw timings into the table (with the targets) and JSON lines.

    summarize.py MODE RAW RESULTS_JSON

RAW has lines "label value [value...]"; RESULTS_JSON already holds the C
benches' JSON lines (floor, dice) and gets the others appended.
"""
import json
import statistics
import sys

mode, raw_path, out_path = sys.argv[1:4]
only = sys.argv[4] if len(sys.argv) > 4 else None
raw = {}
for line in open(raw_path):
    k, *v = line.split()
    raw.setdefault(k, []).append([float(x) for x in v])
c = [json.loads(l) for l in open(out_path) if l.startswith("{")]


def med(key, i=0):
    v = [x[i] for x in raw[key]]
    m = statistics.median(v)
    return m, (max(v) - min(v)) / m if m else 0.0


def one(key):
    return raw[key][0][0]


rows, results = [], []


def row(name, value, unit, spread, target, met):
    rows.append((name, value, unit, spread, target, met))


def print_table():
    if mode == "smoke":
        print("\nBENCH_SMOKE: sizes too small to mean anything (one repetition, a few games);"
              " this run only shows that every bench works.")
    print(f"\n{'measure':50} {'value':>10} {'unit':8} {'spread':>7}  {'target':>12}  met")
    for name, value, unit, spread, tgt, met in rows:
        sp = f"{100 * spread:6.1f}%" if spread is not None else ""
        m = "" if met == "" else ("yes" if met else "NO")
        print(f"{name:50} {value:>10} {unit:8} {sp:>7}  {tgt:>12}  {m}")
    with open(out_path, "a") as f:
        for r in results:
            f.write(json.dumps(r) + "\n")


# Nothing due: ms a game of run --all with the next-due records, in full, and git rev-parse.
idle = one("idle_games")
rec_s, rec_sp = med("idle_record")
full_s, full_sp = med("idle_full")
rev_s, rev_sp = med("idle_rev_parse")
row(f"nothing due: run --all, records ({int(idle)} games)", f"{rec_s / idle * 1e3:.3f}", "ms/game", rec_sp,
    "<= 0.2 ms", rec_s / idle <= 0.2e-3)
row("nothing due: run --all, every game run in full", f"{full_s / idle * 1e3:.3f}", "ms/game", full_sp, "", "")
rev_games = one("idle_rev_parse_games")
row(f"nothing due: git rev-parse main ({int(rev_games)} games)", f"{rev_s / rev_games * 1e3:.3f}", "ms/game",
    rev_sp, "", "")
row("nothing due: full run / with records", f"{full_s / rec_s:.1f}", "x", None, "", "")
results.append({"bench": "nothing_due", "mode": mode, "games": idle, "repeats": len(raw["idle_record"]),
                "record_ms_per_game": rec_s / idle * 1e3, "record_spread": rec_sp,
                "full_ms_per_game": full_s / idle * 1e3, "full_spread": full_sp,
                "rev_parse_ms_per_game": rev_s / rev_games * 1e3, "rev_parse_spread": rev_sp})
if only == "idle":
    print_table()
    sys.exit(0)
floor = next(x for x in c if x["bench"] == "floor")
dice = next(x for x in c if x["bench"] == "dice")


n = one("batch_games")
est_s, est_sp = med("batch_estafette")
base_s, base_sp = med("batch_baseline")
est_rate, base_rate = n / est_s, n / base_s
step_s = est_s / n
row("batch: estafette run --all", f"{est_rate:.1f}", "steps/s", est_sp, "", "")
row("batch: baseline (ssh-keygen + git CLI)", f"{base_rate:.1f}", "steps/s", base_sp, "", "")
faults, faults_sp = med("batch_estafette", 2)
row("batch: estafette's minor page faults", f"{faults / n:.0f}", "a step", faults_sp, "", "")
row("batch: ratio", f"{est_rate / base_rate:.2f}", "x", None, ">= 10 x", est_rate / base_rate >= 10)
row("floor: verify + git objects (durable)", f"{floor['floor_seconds'] * 1e3:.2f}", "ms/step", floor["git_spread"], "", "")
row("  objects as one pack, fsynced", f"{floor['git_packed_seconds'] * 1e3:.2f}", "ms/step", None, "", "")
row("  objects loose, fsynced", f"{floor['git_loose_seconds'] * 1e3:.2f}", "ms/step", None, "", "")
row("  objects loose, no fsync (not a floor)", f"{floor['git_no_fsync_seconds'] * 1e3:.2f}", "ms/step", None, "", "")
row("batch step / floor", f"{step_s / floor['floor_seconds']:.1f}", "x", None, "<= 2 x",
    step_s <= 2 * floor["floor_seconds"])
results.append({"bench": "batch", "mode": mode, "games": n, "repeats": len(raw["batch_estafette"]),
                "estafette_steps_per_second": est_rate, "estafette_spread": est_sp,
                "baseline_steps_per_second": base_rate, "baseline_spread": base_sp,
                "ratio": est_rate / base_rate, "minor_faults_per_step": faults / n,
                "minor_faults_spread": faults_sp, "step_over_floor": step_s / floor["floor_seconds"]})

hist = int(one("hist_steps"))


def history_rows(prefix, what):
    """The early and the late window of the history game, each the median of its steps."""
    (e, e_sp), (l, l_sp) = med(f"{prefix}early"), med(f"{prefix}late")
    w = int(one("hist_window"))
    early, late = f"steps {21 - w}-20", f"steps {hist - w + 1}-{hist}"
    row(f"history{what}: {early} (run, median)", f"{e * 1e3:.1f}", "ms", e_sp, "", "")
    row(f"history{what}: {late} (run, median)", f"{l * 1e3:.1f}", "ms", l_sp, "", "")
    row(f"history{what}: {late} / {early}", f"{l / e:.2f}", "x", None, "<= 1.2 x", l / e <= 1.2)
    return e, l


e, l = history_rows("hist_step_", "")
be, bl = history_rows("histbare_step_", ", bare")
size = one("hist_repo_bytes") / hist
packed = one("hist_repo_packed_bytes") / hist
row("history: repository per step (as written)", f"{size / 1024:.1f}", "KiB", None, "", "")
row("history: repository per step (after gc)", f"{packed / 1024:.1f}", "KiB", None, "", "")
results.append({"bench": "history", "mode": mode, "steps": hist, "window": int(one("hist_window")), "early_seconds": e,
                "late_seconds": l, "ratio": l / e, "bare_early_seconds": be,
                "bare_late_seconds": bl, "bare_ratio": bl / be, "repo_bytes_per_step": size,
                "repo_bytes_per_step_packed": packed})

steps = one("audit_steps")
orders = one("audit_orders")
a_s, a_sp = med("audit_estafette")
b_s, b_sp = med("audit_baseline")
h_s, h_sp = med("audit_hist")
hs = one("audit_hist_steps")
row(f"audit: estafette ({int(steps)} signed steps)", f"{steps / a_s:.1f}", "steps/s", a_sp, "", "")
row(f"audit: baseline ssh-keygen ({int(orders)} orders)", f"{steps / b_s:.1f}", "steps/s", b_sp, "", "")
row("audit: ratio", f"{b_s / a_s:.2f}", "x", None, ">= 10 x", b_s / a_s >= 10)
row(f"audit: estafette, history game ({int(hs)} steps)", f"{hs / h_s:.1f}", "steps/s", h_sp, "", "")
results.append({"bench": "audit", "mode": mode, "steps": steps, "orders": orders,
                "estafette_steps_per_second": steps / a_s, "baseline_steps_per_second": steps / b_s,
                "ratio": b_s / a_s, "history_steps": hs, "history_steps_per_second": hs / h_s})

words = 1.0  # a d6 consumes one word (rejection of w >= 2^32 - 4 is ~1e-9)
target = dice["hmac_per_second"] * 8 / words / 2
row("dice: d6 rolls", f"{dice['rolls_per_second']:.0f}", "rolls/s", None,
    f">= {target:.0f}", dice["rolls_per_second"] >= target)
row("dice: d6 rolls, with dice.json's JSON log", f"{dice['logged_rolls_per_second']:.0f}", "rolls/s",
    None, f">= {target:.0f}", dice["logged_rolls_per_second"] >= target)

mib = lambda kib: kib / 1024
rss = {"one_step": mib(raw["one_step"][0][1]),
       "batch": mib(max(x[1] for x in raw["batch_estafette"])),
       "audit": mib(max(x[1] for x in raw["audit_estafette"])),
       "audit_history": mib(max(x[1] for x in raw["audit_hist"])),
       "history_late_step": mib(max(x[1] for x in raw["hist_step_late"]))}
for k, v in rss.items():
    row(f"memory: peak RSS, {k}", f"{v:.1f}", "MiB", None, "< 32 MiB", v < 32)
results.append({"bench": "memory", "mode": mode, "peak_rss_mib": rss})

print_table()
