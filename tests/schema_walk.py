"""Holds `catena schema` and the loader in step (tests/schema.sh runs it).

Usage: schema_walk.py CATENA SCHEMA.json SCRATCH_DIR FILE.json...

Walks every FILE (scenarios that load) along the schema and, for each closed object of the
schema ($defs/NAME) at its first instance, asks the loader which keys it takes: a key unknown
to both is injected there, and the loader's "unknown key (valid keys: ...)" must list the
schema's keys; a key the loader lists that the schema leaves out must be refused by the
loader there all the same (an obstacle's shape keys: "a plane has no "radius""), and a key
the schema takes there must not be refused so. Every closed
object must be met by some FILE, and no object of a FILE may sit under a key the schema does
not describe. Where the schema says what a key holds, a value it refuses there must be
refused by the loader too. Prints one line per problem and exits 1 when there is any.
"""
import copy
import json
import os
import re
import subprocess
import sys

import jsonschema

PROBE = "zzzz_schema_probe"

catena, schema_file, scratch = sys.argv[1:4]
files = sys.argv[4:]
schema = json.load(open(schema_file))
defs = schema["$defs"]
problems = []


def resolve(s):
    """The schema s stands for, and the $defs name it reached (or None)."""
    name = None
    while "$ref" in s:
        name = s["$ref"].rsplit("/", 1)[1]
        s = defs[name]
    return s, name


def pick(s, inst):
    """For an object whose keys a type picks: the variant's schema and name."""
    for rule in s.get("allOf", []):
        (by, want), = rule["if"]["properties"].items()
        if inst.get(by) == want["const"]:
            return resolve(rule["then"])
    return None, None


def walk(inst, s, path, found, where):
    s, name = resolve(s)
    if isinstance(inst, dict):
        if "allOf" in s:
            s, name = pick(s, inst)
            if s is None:
                problems.append("%s: %s: no variant for this object" % (where, path))
                return
        elif "anyOf" in s:
            for branch in s["anyOf"]:
                b, n = resolve(branch)
                if b.get("type") == "object":
                    s, name = b, n
        if s.get("additionalProperties") is False:
            found.setdefault(name, (where, path))
            for k, v in inst.items():
                walk(v, s["properties"].get(k, {}), path + [k], found, where)
        elif s.get("type") != "object":
            problems.append("%s: %s: an object under a key the schema does not describe"
                            % (where, show(path)))
    elif isinstance(inst, list) and isinstance(s.get("items"), dict):
        for i, x in enumerate(inst):
            walk(x, s["items"], path + [i], found, where)


def show(path):
    out = ""
    for c in path:
        out += "[%d]" % c if isinstance(c, int) else ("." if out else "") + c
    return out


def at(doc, path):
    for c in path:
        doc = doc[c]
    return doc


def loader_says(doc):
    """Runs catena validate on doc; returns (exit status, first line of stderr)."""
    f = os.path.join(scratch, "probe.json")
    with open(f, "w") as out:
        json.dump(doc, out)
    r = subprocess.run([catena, "validate", "-q", f], capture_output=True, text=True)
    line = r.stderr.splitlines()[0] if r.stderr else ""
    return r.returncode, line.replace("catena: %s: " % f, "", 1)


docs = {f: json.load(open(f)) for f in files}
found = {}
for f, doc in docs.items():
    walk(doc, schema, [], found, f)

closed = {n for n, d in defs.items() if d.get("additionalProperties") is False}
for name in sorted(closed - set(found)):
    problems.append("$defs/%s: no file has one (add one to tests/data/schema/)" % name)

for name, (f, path) in sorted(found.items()):
    keys = set(defs[name]["properties"])
    doc = copy.deepcopy(docs[f])
    at(doc, path)[PROBE] = 0
    status, said = loader_says(doc)
    m = re.fullmatch(r"(.*): unknown key \(valid keys: (.*)\)", said)
    where = show(path + [PROBE])
    if status != 2 or not m or m.group(1) != where:
        problems.append("$defs/%s (%s %s): the loader did not refuse %s: %s"
                        % (name, f, show(path), PROBE, said or "exit %d" % status))
        continue
    listed = set(m.group(2).split(", "))
    for k in sorted(keys - listed):
        problems.append("$defs/%s: the schema takes \"%s\", the loader refuses it" % (name, k))
    # A key of the object's table that its type does not take ("a plane has no "radius"")
    # must not be in this variant's schema. (Rules between values, "give either "spacing" or
    # "size"", are the loader's alone.)
    for k in sorted(keys & listed - set(at(docs[f], path))):
        doc = copy.deepcopy(docs[f])
        at(doc, path)[k] = 0
        status, said = loader_says(doc)
        if status == 2 and said.startswith(show(path + [k]) + ": ") and \
                re.search(r'has no "%s"' % re.escape(k), said):
            problems.append("$defs/%s: the schema takes \"%s\", the loader refuses it here: %s"
                            % (name, k, said))
    for k in sorted(listed - keys):
        doc = copy.deepcopy(docs[f])
        obj = at(doc, path)
        if k in obj:
            problems.append("$defs/%s: \"%s\" is in %s but not in the schema" % (name, k, f))
            continue
        obj[k] = 0
        status, said = loader_says(doc)
        refused = said.startswith(show(path + [k]) + ": ") and not re.match(
            r"(expected|must|unknown value|missing)", said[len(show(path + [k])) + 2:])
        if status != 2 or not refused:
            problems.append("$defs/%s: the loader takes \"%s\" (%s), the schema does not"
                            % (name, k, said or "exit %d" % status))

def wrong_value(s):
    """A value that the schema s refuses, or None where s takes anything."""
    check = jsonschema.Draft202012Validator(dict(s, **{"$defs": defs}))
    for v in ("zzzz_not_a_value", 0.5, 0, {}, [], True, [["x"]], [{}]):
        if not check.is_valid(v):
            return v
    return None


# What a key holds, as the schema says: the loader must refuse there what the schema refuses,
# or a file the loader takes would fail in an editor.
for name, (f, path) in sorted(found.items()):
    for k, v in sorted(defs[name]["properties"].items()):
        bad = wrong_value(v)
        if k not in at(docs[f], path) or bad is None or "const" in v:
            continue
        doc = copy.deepcopy(docs[f])
        at(doc, path)[k] = bad
        status, said = loader_says(doc)
        if status != 2 or not said.startswith(show(path + [k])):
            problems.append("$defs/%s: the schema refuses %s for \"%s\", the loader takes it (%s)"
                            % (name, json.dumps(bad), k, said or "exit %d" % status))

for p in problems:
    print(p)
print("%d objects checked against the loader, %d problems" % (len(found), len(problems)))
sys.exit(1 if problems else 0)
