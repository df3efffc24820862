"""The Python face: options and their errors (the command's messages),
pickling, threads, `validate` and `resolve` against the command's line
modes."""

import json
import multiprocessing
import pickle
import re
import subprocess
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

import urifind

from conftest import REPO

TEXT = (
    "Yes, I found it under \"http://www.example.org/Addressing/\",\n"
    "> but <URL:ftp://ftp.example.net/\n> pub/rfc/rfc2396.txt>, see\n"
    "<http://www.example.com/read-\n me.txt> or www.w3.org/TR/ now.\n"
)

OPTION_SETS = [
    {},
    {"grammar": "rfc3986", "any_scheme": True},
    {"schemes": ["HTTP", "ftp"], "abbrev": True, "hyphen": "both"},
    {"schemes": "mailto, news", "hyphen": "drop", "grammar": "rfc2396"},
]


def cli_error(cli, *args):
    out = subprocess.run([str(cli), *args], capture_output=True, stdin=subprocess.DEVNULL)
    assert out.returncode == 2
    # the command's own refusals start "urifind: ", those of its argument
    # parser "error: "
    return out.stderr.decode().strip().removeprefix("urifind: ").removeprefix("error: ")


def as_keywords(message):
    """The command's message with its flags named as the keywords."""
    for flag, kw in [("--any-scheme", "any_scheme"), ("--scheme", "schemes")]:
        message = message.replace(flag, kw)
    return message


# --- Finder -----------------------------------------------------------------


def test_find_reports_uris_offsets_and_context():
    ms = urifind.Finder().find(TEXT)
    raw = TEXT.encode()
    assert [m.uri for m in ms] == [
        "http://www.example.org/Addressing/",
        "ftp://ftp.example.net/pub/rfc/rfc2396.txt",
        "http://www.example.com/read-me.txt",
    ]
    assert [m.delimiter for m in ms] == ["quoted", "url-prefixed", "angle"]
    assert [m.context for m in ms] == ["text"] * 3
    assert TEXT[ms[0].start:ms[0].end] == "http://www.example.org/Addressing/"
    assert raw[ms[0].byte_start:ms[0].byte_end] == b"http://www.example.org/Addressing/"
    assert raw[ms[0].span_start] == ord('"') and ms[0].span == (ms[0].span_start, ms[0].span_end)
    assert ms[2].without_hyphen == "http://www.example.com/readme.txt"
    assert ms[0].without_hyphen is None
    # outside mail, the mail fields are None
    assert all(getattr(ms[0], k) is None for k in
               ["message", "message_id", "part", "content_type", "encoding", "shown", "parts_seen"])


def test_hyphen_and_abbrev_options():
    assert urifind.Finder(hyphen="both", abbrev=True).find_uris(TEXT)[2:] == [
        "http://www.example.com/read-me.txt",
        "http://www.example.com/readme.txt",
        "http://www.w3.org/TR/",
    ]
    assert urifind.Finder(hyphen="drop").find_uris(TEXT)[2] == "http://www.example.com/readme.txt"
    assert urifind.Finder(schemes="FTP").find_uris(TEXT) == [
        "ftp://ftp.example.net/pub/rfc/rfc2396.txt"
    ]
    assert urifind.find_uris(TEXT) == urifind.Finder().find_uris(TEXT)
    assert urifind.find_uris(TEXT, abbrev=True)[-1] == "http://www.w3.org/TR/"


def test_text_types():
    f = urifind.Finder()
    want = f.find_uris(TEXT)
    raw = TEXT.encode()
    assert f.find_uris(raw) == f.find_uris(bytearray(raw)) == f.find_uris(memoryview(raw)) == want
    assert f.find_uris(b"\xff see http://a.example/ \xfe") == ["http://a.example/"]
    with pytest.raises(TypeError, match="str or bytes"):
        f.find(12)


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_pickle_round_trip(options):
    f = urifind.Finder(**options)
    g = pickle.loads(pickle.dumps(f))
    assert g == f and hash(g) == hash(f) and repr(g) == repr(f)
    assert g.find(TEXT) == f.find(TEXT)
    assert (g.grammar, g.schemes, g.hyphen) == (f.grammar, f.schemes, f.hyphen)
    ms = f.find(TEXT)
    assert pickle.loads(pickle.dumps(ms)) == ms


def _scan_in_child(blob):
    return [m.to_dict() for m in pickle.loads(blob).find(TEXT)]


def test_a_pickled_finder_works_in_another_process():
    f = urifind.Finder(abbrev=True, hyphen="drop")
    ctx = multiprocessing.get_context("spawn")
    with ctx.Pool(1) as pool:
        got = pool.apply(_scan_in_child, (pickle.dumps(f),))
    assert got == [m.to_dict() for m in f.find(TEXT)]


def test_repr_rebuilds_the_finder():
    f = urifind.Finder(schemes=["http"], abbrev=True, hyphen="both")
    assert eval(repr(f), {"Finder": urifind.Finder}) == f
    assert f != urifind.Finder()


def test_one_finder_shared_by_threads_gives_the_serial_results():
    f = urifind.Finder(abbrev=True)
    texts = [p.read_bytes() for p in sorted((REPO / "corpora" / "cases").glob("*.txt"))] * 4
    serial = [f.find_uris(t) for t in texts]
    with ThreadPoolExecutor(4) as pool:
        threaded = list(pool.map(f.find_uris, texts))
    assert threaded == serial


# --- errors: the command's messages -------------------------------------------


def test_unknown_grammar(cli):
    with pytest.raises(urifind.OptionError) as e:
        urifind.Finder(grammar="rfc1738")
    assert str(e.value) == cli_error(cli, "--grammar", "rfc1738", "/dev/null")
    assert isinstance(e.value, ValueError) and isinstance(e.value, urifind.Error)
    with pytest.raises(urifind.OptionError, match="unknown grammar"):
        urifind.validate("x", grammar="rfc1738")


@pytest.mark.parametrize("bad", ["1http", "ht tp", ""])
def test_invalid_scheme(cli, bad):
    with pytest.raises(urifind.OptionError) as e:
        urifind.Finder(schemes=["http", bad])
    assert str(e.value) == as_keywords(cli_error(cli, "--scheme", f"http,{bad}", "/dev/null"))


def test_schemes_and_any_scheme(cli):
    with pytest.raises(urifind.OptionError) as e:
        urifind.Finder(schemes="http", any_scheme=True)
    assert str(e.value) == as_keywords(
        cli_error(cli, "--scheme", "http", "--any-scheme", "/dev/null")
    )


def test_other_bad_options():
    with pytest.raises(urifind.OptionError, match="expected keep, drop or both"):
        urifind.Finder(hyphen="maybe")
    with pytest.raises(urifind.OptionError, match="schemes is empty"):
        urifind.Finder(schemes=[])
    with pytest.raises(TypeError):
        urifind.Finder(colour="red")


@pytest.mark.parametrize("mode", ["iri", "mail"])
def test_modes_are_on_when_asked(mode):
    f = urifind.Finder(**{mode: True})
    assert getattr(f, mode) is True


def test_iri_refuses_rfc2396_as_the_command_does():
    with pytest.raises(urifind.OptionError, match="predates IRIs"):
        urifind.Finder(iri=True, grammar="rfc2396")


# --- validate -----------------------------------------------------------------


def grammar_inputs():
    """Every URI of corpora/grammar (the third field, `\\xHH` and `\\\\`
    unescaped), one line each."""
    seen = []
    for path in sorted((REPO / "corpora" / "grammar").glob("*.txt")):
        for line in path.read_text("utf-8").splitlines():
            f = line.split("\t")
            if line.startswith("#") or len(f) < 3:
                continue
            raw = re.sub(
                rb"\\(x[0-9a-fA-F]{2}|\\)",
                lambda m: b"\\" if m.group(1) == b"\\" else bytes([int(m.group(1)[1:], 16)]),
                f[2].encode(),
            )
            if b"\n" not in raw and b"\r" not in raw and raw not in seen:
                seen.append(raw)
    return seen


@pytest.mark.parametrize("grammar", ["rfc2396bis", "rfc2396", "rfc3986"])
@pytest.mark.parametrize("flags", [[], ["--absolute"], ["--scheme-rules"]], ids=str)
def test_validate_equals_the_commands_parse(cli, grammar, flags):
    inputs = grammar_inputs()
    assert len(inputs) > 300
    out = subprocess.run(
        [str(cli), "--parse", "--grammar", grammar, *flags],
        input=b"\n".join(inputs) + b"\n",
        capture_output=True,
    )
    lines = out.stdout.decode().splitlines()
    assert len(lines) == len(inputs)
    kw = {"absolute": "--absolute" in flags, "scheme_rules": "--scheme-rules" in flags}
    valid = 0
    for raw, line in zip(inputs, lines):
        o = json.loads(line)
        v = urifind.validate(raw, grammar=grammar, **kw)
        assert v.ok == o["valid"] == bool(v), raw
        if v.ok:
            valid += 1
            comps = v.components()
            for k in ["scheme", "authority", "userinfo", "host", "port", "path", "query", "fragment"]:
                if k in o:
                    assert comps[k] == o[k], (raw, k)
        else:
            assert (v.offset, v.reason) == (o["error"]["offset"], o["error"]["message"]), raw
            assert v.part in {"scheme", "authority", "path", "query", "fragment"}
            assert v.components() == {}
    assert 0 < valid < len(inputs)


def test_validate_result():
    v = urifind.validate("ftp://anon@[::1]:21/pub?x#y")
    assert v.ok and (v.scheme, v.userinfo, v.host, v.port, v.path, v.query, v.fragment) == (
        "ftp", "anon", "[::1]", "21", "/pub", "x", "y")
    assert v.offset is None and v.reason is None
    v = urifind.validate(b"http://a/b%zz")
    assert not v and (v.offset, v.reason, v.part) == (10, "'%' must be followed by two hex digits", "path")
    assert not urifind.validate("../g", absolute=True)
    assert urifind.validate("http://256.1.1.1/")
    assert urifind.validate("http://256.1.1.1/", scheme_rules=True).reason == (
        "octet 256 is out of range in IPv4 address")


# --- resolve ------------------------------------------------------------------


def resolve_table():
    """(base, reference, expected, compat) of corpora/resolve."""
    rows = []
    for path in sorted((REPO / "corpora" / "resolve").glob("*.txt")):
        base = None
        for line in path.read_text("utf-8").splitlines():
            if line.startswith("@base "):
                base = line[6:]
            elif "\t" in line and not line.startswith("#"):
                f = line.split("\t")
                rows.append((base, f[0], f[1], len(f) > 2 and f[2] == "compatible"))
    return rows


def test_resolve_equals_the_table_and_the_command(cli):
    rows = resolve_table()
    assert len(rows) > 50
    by_base = {}
    for base, ref, want, compat in rows:
        try:
            got = urifind.resolve(base, ref, compat=compat)
        except urifind.InvalidURIError as e:
            got = e
        by_base.setdefault((base, compat), []).append((ref, got))
        if not isinstance(got, Exception):
            assert got == want, (base, ref)
    for (base, compat), refs in by_base.items():
        flags = ["--compat"] if compat else []
        out = subprocess.run(
            [str(cli), "--resolve", base, *flags],
            input="".join(r + "\n" for r, _ in refs).encode(),
            capture_output=True,
        )
        printed = out.stdout.decode().splitlines()
        ours = [g for _, g in refs if not isinstance(g, Exception)]
        assert printed == ours, base
        errors = [g for _, g in refs if isinstance(g, Exception)]
        assert len(out.stderr.decode().splitlines()) == len(errors)


def test_resolve_errors(cli):
    with pytest.raises(urifind.ResolveError) as e:
        urifind.resolve("/a/b", "g")
    assert str(e.value) == cli_error(cli, "--resolve", "/a/b").removeprefix("--resolve: ")
    with pytest.raises(urifind.InvalidURIError) as e:
        urifind.resolve("http://a/b/c", "g%zz")
    assert (e.value.offset, e.value.reason) == (1, "'%' must be followed by two hex digits")
    out = subprocess.run([str(cli), "--resolve", "http://a/b/c"], input=b"g%zz\n", capture_output=True)
    assert out.stderr.decode().strip() == f"urifind: -:1:{e.value.offset + 1}: {e.value.reason}"
    assert urifind.resolve("http://a/b/c/d;p?q", "http:g", compat=True) == "http://a/b/c/g"
    assert urifind.resolve("HTTP://A.example:80/b/", "%7e", normalize=True) == "http://a.example/b/~"


def test_the_package_docstring_example_runs():
    import doctest

    result = doctest.testmod(urifind)
    assert result.attempted >= 3 and result.failed == 0
