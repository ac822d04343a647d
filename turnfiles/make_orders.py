#!/usr/bin/python3
"""Regenerate a sample game's signed order files from its plan.json.

    /usr/bin/python3 turnfiles/make_orders.py turnfiles/la-guerre build/estafette

plan.json holds the game ("game", "ruleset" (by default the folder's name),
"secret", "clock", "options" and "dice_protocol": how `make demo` creates it),
"join": for a game under dice v2, what its first step (the join: every
player's signed file with no orders) must give, as an entry's "expect" and
"then" below (the order of play it throws), and "salt", where the grinding
of the last join file starts, and "plan": in play order, what each player ordered:
{"player", "seq", "orders"}, optionally with "expect": strings that must
appear in the events of the steps this entry resolves (a pursuit, a
bombardment) and "then": {"player", "kind"} that the game must await next.

The script plays the game exactly as `make demo` replays it, and for each
entry writes orders/NNNN-<player>.json bound to the state it is played
against (step, prev) and signs it with the real ssh-keygen and the TEST key
in keys/. Entropy is derived from the step and player, so the files are
reproducible. Dice depend on every order's bytes, so when an entry's
outcome is not the one the plan expects, the script tries the entry again
with another salt in its entropy (from a copy of the game taken before),
until the dice give the story the plan tells. At the end it prints what the
game awaits and the awaited player's report, to write the next entry.
"""
import hashlib
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile

MAX_SALT = 400


def sh(*args, **kw):
    return subprocess.run(args, check=True, capture_output=True, text=True, **kw).stdout


class Sample:
    def __init__(self, folder, estafette):
        self.dir = pathlib.Path(folder).resolve()
        self.estafette = str(pathlib.Path(estafette).resolve())
        doc = json.loads((self.dir / "plan.json").read_text())
        self.game_id = doc.get("game", "ne-demo")
        self.ruleset = doc.get("ruleset", self.dir.name)  # turnfiles/<ruleset>/
        self.secret = doc.get("secret", "estafette sample game")
        # The samples were signed under the dice protocol they name (default v2).
        self.dice_protocol = doc.get("dice_protocol", "v2")
        self.options = doc.get("options", {})
        self.plan = doc["plan"]
        self.join = doc.get("join", {})
        self.work = pathlib.Path(tempfile.mkdtemp(prefix="estafette-sample."))
        self.game = self.work / "game"
        os.environ.update(ESTAFETTE_HOME=str(self.work / "home"),
                          ESTAFETTE_COMMIT_TIME=str(doc.get("clock", 1764000000)))

    def e(self, *args):
        return sh(self.estafette, *args)

    def status(self):
        return json.loads(self.e("status", str(self.game), "--json"))

    def start(self):
        options = [f"--option={k}={v}" for k, v in self.options.items()]
        self.e("new", str(self.game), "--ruleset", self.ruleset, "--id", self.game_id,
               "--players", str(self.dir / "players.json"), "--test-dice-secret", self.secret,
               "--dice-protocol", self.dice_protocol, *options)
        self.e("run", str(self.game))

    def join_all(self, out):
        """The join, when the game starts with one: each player's file with no orders,
        in the order the game lists them; the last one's salt is ground until the
        set-up draws tell the story plan.json's "join" asks for."""
        status = self.status()
        if status.get("kind") != "join":
            return
        players = [a["player"] for a in status["awaiting"]]
        for i, player in enumerate(players):
            entry = {"player": player, "seq": 1, "orders": []}
            last = i == len(players) - 1
            if last:
                entry.update({k: v for k, v in self.join.items() if k in ("expect", "then")})
            self.play(entry, out, self.join.get("salt", 0) if last else 0)

    def snapshot(self, name):
        snap = self.work / name
        shutil.rmtree(snap, ignore_errors=True)
        snap.mkdir()
        for part in ("game", "home"):
            shutil.copytree(self.work / part, snap / part, symlinks=True)

    def restore(self, name):
        for part in ("game", "home"):
            shutil.rmtree(self.work / part)
            shutil.copytree(self.work / name / part, self.work / part, symlinks=True)

    def write_order(self, entry, status, salt, out):
        player, step = entry["player"], status["step"]
        seed = f"estafette sample game/{step}/{player}/{entry['seq']}"
        if salt:
            seed += f"/{salt}"
        order = {"estafette": "orders/1", "game": self.game_id, "step": step, "player": player,
                 "prev": status["state_sha256"], "seq": entry["seq"],
                 "entropy": hashlib.sha256(seed.encode()).hexdigest(), "orders": entry["orders"]}
        path = out / f"{step:04d}-{player}.json"
        path.write_text(json.dumps(order, indent=2, ensure_ascii=False) + "\n")
        sig = pathlib.Path(str(path) + ".sig")
        if sig.exists():
            sig.unlink()
        sh("ssh-keygen", "-q", "-Y", "sign", "-f", str(self.private_key(player)),
           "-n", "estafette-orders", str(path))
        return path

    def private_key(self, player):
        """A copy of the player's test key, mode 0600: git checks files out 0644,
        and ssh-keygen will not sign with a private key others may read."""
        key = self.work / "keys" / player
        if not key.exists():
            key.parent.mkdir(exist_ok=True)
            key.write_bytes((self.dir / "keys" / player).read_bytes())
            key.chmod(0o600)
        return key

    def events_since(self, step):
        texts = []
        if not (self.game / "turns").exists():
            return ""
        for d in sorted((self.game / "turns").iterdir()):
            if int(d.name) >= step and (d / "events.json").exists():
                texts += [e["text"] for e in json.loads((d / "events.json").read_text())["events"]]
        return "\n".join(texts)

    def as_planned(self, entry, step):
        """Whether the entry's run told the story the plan expects."""
        events = self.events_since(step)
        if any(text not in events for text in entry.get("expect", [])):
            return False
        then = entry.get("then")
        if not then:
            return True
        status = self.status()
        awaited = [a["player"] for a in status["awaiting"]]
        return status.get("kind") == then.get("kind", status.get("kind")) and \
            then.get("player", awaited[0] if awaited else None) in awaited

    def play(self, entry, out, first_salt=0):
        status = self.status()
        self.snapshot("before")
        for salt in range(first_salt, first_salt + MAX_SALT):
            path = self.write_order(entry, status, salt, out)
            r = subprocess.run([self.estafette, "submit", str(self.game), str(path)],
                               capture_output=True, text=True)
            if r.returncode != 0:
                sys.exit(f"{path.name}: refused: {r.stderr}")
            self.e("run", str(self.game))
            if self.as_planned(entry, status["step"]):
                return
            if os.environ.get("SAMPLE_DEBUG"):
                print(f"salt {salt}:", self.events_since(status["step"]).replace("\n", " | ")[:3000],
                      file=sys.stderr)
            self.restore("before")
        sys.exit(f"{path.name}: no salt below {MAX_SALT} gives the outcome the plan expects: "
                 f"{entry.get('expect')} then {entry.get('then')}")

    def main(self):
        self.start()
        out = self.dir / "orders"
        shutil.rmtree(out, ignore_errors=True)
        out.mkdir()
        self.join_all(out)
        for entry in self.plan:
            self.play(entry, out)
        status = self.status()
        print(json.dumps({k: status[k] for k in ("step", "kind", "prompt")}, indent=1))
        for a in status["awaiting"]:
            print(self.e("report", str(self.game), "--player", a["player"]))
        print(f"game left in {self.game}")


if __name__ == "__main__":
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    Sample(sys.argv[1], sys.argv[2]).main()
