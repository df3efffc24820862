"""The labeled cases through `Finder.find_uris` and `Finder.find` equal
the command's output on the same files, option set by option set."""

import base64
import json
import subprocess

import pytest

import urifind

from conftest import REPO, SHARED, case_files

DIRS = {
    "shared": SHARED / "cases",
    "corpora": REPO / "corpora" / "cases",
}
MAIL_DIR = SHARED / "cases-mail"
LINKS_DIR = SHARED / "cases-links"

# (Finder keywords, the command's flags for the same options)
OPTION_SETS = [
    ({}, []),
    ({"abbrev": True}, ["--abbrev"]),
    ({"any_scheme": True}, ["--any-scheme"]),
    ({"grammar": "rfc3986"}, ["--grammar", "rfc3986"]),
    ({"grammar": "rfc2396"}, ["--grammar", "rfc2396"]),
    ({"hyphen": "both"}, ["--hyphen", "both"]),
    ({"hyphen": "drop"}, ["--hyphen", "drop"]),
    ({"schemes": ["http", "mailto"]}, ["--scheme", "http,mailto"]),
]


def files_of(name):
    d = {"mail": MAIL_DIR, "links": LINKS_DIR}.get(name) or DIRS[name]
    if not d.is_dir():
        pytest.skip(f"{d} is not present (the shared cases sit beside the repository)")
    files = case_files(d)
    assert files, f"no cases in {d}"
    return files


def cli_uris(cli, flags, files):
    """The command's plain output per file (one run over all files)."""
    out = subprocess.run(
        [str(cli), "-a", "-H", *flags, *map(str, files)],
        capture_output=True,
        check=False,
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    per = {str(f): [] for f in files}
    for line in out.stdout.split(b"\n"):
        if not line:
            continue
        for f in per:
            head = f.encode() + b":"
            if line.startswith(head):
                per[f].append(line[len(head):].decode("utf-8", "replace"))
                break
        else:
            raise AssertionError(f"unattributed output line {line!r}")
    return per


@pytest.mark.parametrize("where", sorted(DIRS))
@pytest.mark.parametrize("options,flags", OPTION_SETS, ids=lambda v: str(v))
def test_find_uris_equals_the_command(cli, where, options, flags):
    files = files_of(where)
    expected = cli_uris(cli, flags, files)
    f = urifind.Finder(**options)
    wrong = []
    assert sum(map(len, expected.values())) > 100
    for path in files:
        got = f.find_uris(path.read_bytes())
        if got != expected[str(path)]:
            wrong.append((path.name, got, expected[str(path)]))
    assert not wrong, f"{len(wrong)} of {len(files)} differ, first: {wrong[:3]}"


def test_shared_cases_are_all_right_by_default():
    files = files_of("shared")
    f = urifind.Finder()
    wrong = [
        p.name
        for p in files
        if f.find_uris(p.read_bytes())
        != p.with_suffix(".expected").read_text("utf-8").splitlines()
    ]
    assert not wrong, wrong
    assert len(files) >= 166


def test_str_and_bytes_give_the_same_uris():
    files = files_of("corpora")
    f = urifind.Finder()
    n = 0
    for path in files:
        data = path.read_bytes()
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            continue
        assert f.find_uris(text) == f.find_uris(data), path.name
        n += 1
    assert n > 100


def json_fields(o, mail):
    """The fields of `Match` as the command's JSON line `o` gives them,
    read under either JSON schema: the one where raw mode's `context` is
    the delimiter, and the one where `context` says where in every mode
    and `delimiter` how."""
    uri = o.get("uri")
    if uri is None:
        uri = base64.b64decode(o["uri_base64"]).decode("utf-8", "replace")
    alts = o.get("alternatives") or [None]
    where = o["context"] if "delimiter" in o else "text"
    seen = o.get("parts_seen")
    return {
        "uri": uri,
        "start": o["uri_start"],
        "end": o["uri_end"],
        "span_start": o["span_start"],
        "span_end": o["span_end"],
        "byte_start": o["uri_start"],
        "byte_end": o["uri_end"],
        "byte_span_start": o["span_start"],
        "byte_span_end": o["span_end"],
        "context": where,
        "delimiter": o.get("delimiter", o["context"]),
        "without_hyphen": alts[0],
        "message": o.get("message"),
        "message_id": o.get("message_id"),
        "part": o.get("part"),
        "content_type": o.get("content_type"),
        "encoding": o.get("encoding"),
        "shown": o.get("shown"),
        "parts_seen": (seen.split(",") if seen else []) if mail else None,
        **{k: o.get(k) for k in LINK_FIELDS},
    }


# The link analysis's members of the command's JSON, each left out where
# it does not apply (None in a match).
LINK_FIELDS = ["target", "wrappers", "unwrap", "target_host", "embedded", "host_as_read", "flags"]


JSON_SETS = {
    "shared": ([], {}),
    "corpora": ([], {}),
    "mail": (["--mail"], {"mail": True}),
    "links": (["--browser-hosts"], {"browser_hosts": True}),
}


@pytest.mark.parametrize("where", sorted(JSON_SETS))
def test_matches_equal_the_commands_json(cli, where):
    """Every field of every match equals the command's JSON: offsets,
    context, delimiter, the hyphen alternative, and in mail the message,
    its ID, the part, its content type and encoding, `shown` and
    `parts_seen`."""
    flags, options = JSON_SETS[where]
    files = files_of(where)
    out = subprocess.run(
        [str(cli), "-a", "--json", *flags, *map(str, files)], capture_output=True, check=False
    )
    assert out.returncode in (0, 1), out.stderr.decode()
    per = {str(p): [] for p in files}
    mail_files = set()
    for line in out.stdout.splitlines():
        o = json.loads(line)
        if o.get("type", "match") != "match":
            continue
        if "message" in o:  # the command read the file as mail
            mail_files.add(o["path"])
        per[o["path"]].append(json_fields(o, "message" in o))
    f, mail = urifind.Finder(**options), urifind.Finder(**dict(options, mail=True))
    total = 0
    for path in files:
        finder = mail if str(path) in mail_files else f
        got = [m.to_dict() for m in finder.find(path.read_bytes())]
        assert got == per[str(path)], path.name
        total += len(got)
    assert total > {"mail": 20, "links": 15}.get(where, 100)
    if where == "mail":
        assert len(mail_files) == len(files)
        fields = [m for ms in per.values() for m in ms]
        assert any(m["message_id"] for m in fields) and any(m["shown"] for m in fields)
        assert {m["context"] for m in fields} >= {"text", "html-href"}
    if where == "links":
        fields = [m for ms in per.values() for m in ms]
        assert sum(bool(m["target"]) for m in fields) >= 8
        assert any(m["host_as_read"] for m in fields) and any(m["embedded"] for m in fields)


@pytest.mark.parametrize(
    "mode, flag, cases",
    [("mail", "--mail", "cases-mail"), ("iri", "--iri", "cases-iri")],
)
def test_mode_cases_equal_the_command(cli, mode, flag, cases):
    """Mail and IRI modes: each of their cases through Finder(mode=True)
    equals the command with the mode's flag on the file, and the labeled
    answers."""
    d = SHARED / cases
    if not d.is_dir():
        pytest.skip(f"{d} is not present")
    f = urifind.Finder(**{mode: True})
    files = case_files(d)
    assert files
    for path in files:
        out = subprocess.run([str(cli), flag, str(path)], capture_output=True)
        assert out.returncode in (0, 1), out.stderr.decode()
        want = out.stdout.decode("utf-8", "replace").splitlines()
        assert f.find_uris(path.read_bytes()) == want, path.name
        labeled = path.with_suffix(".expected").read_text("utf-8").splitlines()
        assert want == labeled, path.name
