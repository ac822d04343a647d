#!/usr/bin/python3
"""Read hooks/github-workflow*.yml as GitHub does, and a step's log as its runner does.

    gh_workflow.py lint CHECK.yml HOSTED.yml   the rules both workflows must keep
    gh_workflow.py script FILE.yml JOB STEP    the `run` script of that step, on stdout
    gh_workflow.py log LOG RESULT.json         the log of the "Check the orders" step

`log` parses every line as GitHub's runner parses workflow commands: "::name
props::data" at the start of a line (after leading blanks), the older
"##[name]data" anywhere in a line, and "::stop-commands::TOKEN" ... "::TOKEN::"
around text whose commands are ignored. It requires that the only commands
are the annotations the step meant (one per file of RESULT.json, whose
file= decodes to that file's name exactly) and the stop/resume pair; and that
the report inside the pair would carry no command even if it were not there.
"""
import json
import re
import sys

import yaml

# The runner's registered commands (actions/runner, ActionCommandManager).
COMMANDS = {"set-env", "set-output", "save-state", "add-mask", "add-path", "add-matcher",
            "remove-matcher", "debug", "warning", "error", "notice", "group", "endgroup",
            "echo", "stop-commands"}


def fail(msg):
    print("gh_workflow: " + msg, file=sys.stderr)
    sys.exit(1)


def load(path):
    with open(path) as f:
        text = f.read()
    doc = yaml.safe_load(text)
    # YAML 1.1 reads the key `on` as true
    doc["on"] = doc.pop(True, doc.get("on"))
    return text, doc


def triggers(doc):
    on = doc["on"]
    return set([on] if isinstance(on, str) else on)


def read_only(perms, where):
    if not isinstance(perms, dict) or not perms:
        fail(f"{where}: permissions must be a map of scopes, read or none: {perms!r}")
    for scope, level in perms.items():
        if level not in ("read", "none"):
            fail(f"{where}: permissions {scope}: {level} (only read or none)")


def lint(check_path, hosted_path):
    text, doc = load(check_path)
    if "secrets." in text:
        fail(f"{check_path}: mentions secrets. (the check holds no secret)")
    if "pull_request_target" in triggers(doc):
        fail(f"{check_path}: triggered by pull_request_target")
    if triggers(doc) != {"pull_request"}:
        fail(f"{check_path}: triggers {sorted(triggers(doc))}, but the check runs on pull_request only")
    read_only(doc.get("permissions"), f"{check_path}: top level")
    for name, job in doc["jobs"].items():
        read_only(job.get("permissions"), f"{check_path}: job {name}")
        if "environment" in job:
            fail(f"{check_path}: job {name} deploys to an environment")
        checkouts = [s for s in job["steps"] if str(s.get("uses", "")).startswith("actions/checkout@")]
        if len(checkouts) != 1:
            fail(f"{check_path}: job {name}: {len(checkouts)} actions/checkout steps, expected 1")
        ref = str(checkouts[0].get("with", {}).get("ref", ""))
        if "github.event.pull_request.head.sha" not in ref:
            fail(f"{check_path}: job {name} checks out {ref!r}, not the pull request's head sha")
        if checkouts[0]["with"].get("fetch-depth") != 0:
            fail(f"{check_path}: job {name}: the checkout needs fetch-depth: 0 (the base too)")
        for s in job["steps"]:
            if re.search(r"\bgit\b[^\n]*\bfetch\b", s.get("run", "")):
                fail(f"{check_path}: job {name}, step {s.get('name')!r}: a git fetch after the "
                     "checkout has no credentials on a private repository")
            if "${{" in s.get("run", ""):
                fail(f"{check_path}: step {s.get('name')!r}: an expression inside run "
                     "(pass it through env instead)")

    text, doc = load(hosted_path)
    bad = triggers(doc) & {"pull_request", "pull_request_target"}
    if bad:
        fail(f"{hosted_path}: triggered by {sorted(bad)}")
    read_only(doc.get("permissions"), f"{hosted_path}: top level")
    for name, job in doc["jobs"].items():
        env = job.get("environment")
        env = env.get("name") if isinstance(env, dict) else env
        if env != "estafette-gm":
            fail(f"{hosted_path}: job {name} is not bound to the environment estafette-gm: {env!r}")
        if job.get("if") != "github.ref == 'refs/heads/main'":
            fail(f"{hosted_path}: job {name} runs off main: if {job.get('if')!r}")
        read_only(job.get("permissions"), f"{hosted_path}: job {name}")
        for s in job["steps"]:
            if "secrets." in json.dumps(s) and "env" not in s:
                fail(f"{hosted_path}: step {s.get('name')!r} reads secrets outside env")
            if "${{" in s.get("run", ""):
                fail(f"{hosted_path}: step {s.get('name')!r}: an expression inside run")
    print("lint ok")


def script(path, job, step):
    _, doc = load(path)
    for s in doc["jobs"][job]["steps"]:
        if s.get("name") == step:
            sys.stdout.write(s["run"])
            return
    fail(f"{path}: no step {step!r} in job {job}")


def unescape(s, prop):
    s = s.replace("%0D", "\r").replace("%0A", "\n")
    if prop:
        s = s.replace("%3A", ":").replace("%2C", ",")
    return s.replace("%25", "%")


def parse(line):
    """The command a line carries, as (name, props, data), or None."""
    m = line.lstrip()
    if m.startswith("::"):
        end = m.find("::", 2)
        if end >= 0:
            info, data = m[2:end], m[end + 2:]
            name, _, rest = info.partition(" ")
            props = {}
            for kv in filter(None, rest.split(",")):
                k, _, v = kv.partition("=")
                props[k] = unescape(v, True)
            return name, props, unescape(data, False)
    i = line.find("##[")
    if i >= 0:
        j = line.find("]", i)
        if j >= 0:
            name = line[i + 3:j].split(" ")[0]
            return name, {}, line[j + 1:]
    return None


def log(path, result_path):
    with open(result_path) as f:
        files = [x["file"] for x in json.load(f)["files"]]
    with open(path, newline="") as f:
        lines = re.split(r"\r\n|\r|\n", f.read())
    token, stopped, seen, report = None, False, [], []
    for line in lines:
        cmd = parse(line)
        if stopped:
            if cmd and cmd[0] == token:
                stopped = False
            else:
                report.append(line)
            continue
        if cmd is None:
            continue
        name, props, data = cmd
        if name == "stop-commands":
            if token is not None or len(data) < 16:
                fail(f"{path}: stop-commands {data!r}, once, with a token of 16 or more characters")
            token, stopped = data, True
        elif name in ("error", "notice"):
            seen.append(props.get("file"))
            if set(props) != {"file", "line"}:
                fail(f"{path}: annotation with properties {sorted(props)}: {line!r}")
        elif name.lower() in COMMANDS or name == token:
            fail(f"{path}: a workflow command the step did not mean: {line!r}")
    if token is None or stopped:
        fail(f"{path}: the report is not wrapped in stop-commands ... resume")
    if seen != files:
        fail(f"{path}: annotations for {seen!r}, but the files are {files!r}")
    for line in report:
        if line and not re.match(r"^(ok|refused) +\S", line):
            fail(f"{path}: a report line that is not one result: {line!r}")
        if parse(line) is not None:
            fail(f"{path}: a report line that would be a command without stop-commands: {line!r}")
    print(f"log ok: {len(seen)} annotations, {len(report)} report lines")


if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "lint":
        lint(sys.argv[2], sys.argv[3])
    elif len(sys.argv) == 5 and sys.argv[1] == "script":
        script(*sys.argv[2:])
    elif len(sys.argv) == 4 and sys.argv[1] == "log":
        log(sys.argv[2], sys.argv[3])
    else:
        fail("usage: lint CHECK.yml HOSTED.yml | script FILE.yml JOB STEP | log LOG RESULT.json")
