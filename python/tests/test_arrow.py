"""`Finder.find_arrow` on Arrow arrays equals `Finder.find` row by row,
whatever the array's type, offset, nulls or chunking."""

import random

import pyarrow as pa
import pytest

import urifind

from conftest import REPO, case_files

ROWS = 100_000


def prose_rows(n, seed=2003):
    """`n` rows of text: labeled cases, and generated sentences with URIs
    bare, in angle brackets and quotes, broken across lines, hyphenated at
    a line end, quoted as in mail, non-ASCII, and every tenth row null."""
    rng = random.Random(seed)
    cases = [p.read_bytes() for p in case_files(REPO / "corpora" / "cases")]
    cases = [c.decode("utf-8") for c in cases if _utf8(c)]
    words = "the a URI of in mail see at news text é 文 found reply".split()
    hosts = ["a.example", "www.example.org", "ftp.example.net", "[::1]", "256.1.1.1"]
    forms = [
        lambda u: u,
        lambda u: f"<{u}>",
        lambda u: f'"{u}"',
        lambda u: f"<URL:{u}>",
        lambda u: f"<{u[:12]}\n  {u[12:]}>",
        lambda u: f"<{u[:14]}-\n {u[14:]}>",
        lambda u: f"> see <{u[:10]}\n> {u[10:]}>",
        lambda u: f"({u}).",
    ]
    rows = []
    for i in range(n):
        if i % 10 == 9:
            rows.append(None)
        elif i % 7 == 3:
            rows.append(cases[rng.randrange(len(cases))])
        else:
            parts = []
            for _ in range(rng.randrange(1, 12)):
                if rng.random() < 0.2:
                    scheme = rng.choice(["http", "https", "ftp", "mailto", "urn"])
                    host = rng.choice(hosts)
                    path = "/".join(rng.choice(words) for _ in range(rng.randrange(3)))
                    uri = (
                        f"mailto:x@{host}"
                        if scheme == "mailto"
                        else f"urn:isbn:{rng.randrange(10**6)}"
                        if scheme == "urn"
                        else f"{scheme}://{host}/{path}"
                    )
                    parts.append(rng.choice(forms)(uri))
                else:
                    parts.append(rng.choice(words))
            rows.append(" ".join(parts) + rng.choice(["", ".", "\n", " www.w3.org/x"]))
    return rows


def _utf8(b):
    try:
        b.decode("utf-8")
        return True
    except UnicodeDecodeError:
        return False


def row_by_row(finder, rows):
    return [
        None if r is None else [m.to_dict() for m in finder.find(r)] for r in rows
    ]


@pytest.fixture(scope="module")
def rows():
    return prose_rows(ROWS)


def test_100k_rows_equal_row_by_row_find(rows):
    f = urifind.Finder()
    got = f.find_arrow(pa.array(rows, pa.string()))
    assert isinstance(got, pa.ListArray)
    assert len(got) == ROWS
    want = row_by_row(f, rows)
    assert got.to_pylist() == want
    assert sum(len(w) for w in want if w) > 20_000
    assert got.null_count == sum(r is None for r in rows)


def test_a_row_left_open_changes_nothing_in_the_next():
    # One scan serves every row of an array: an angle bracket, a quote or
    # a parenthesis left open at the end of a row, a URI cut by the row's
    # end, must not reach into the next row.
    f = urifind.Finder(abbrev=True)
    rows = ['<http://a.example/\n  x', 'y> http://b.example/ "', 'q" (www.c.example',
            ') http://[::1:', 'http://d.example/a_(b)c) <URL:e:f', '>', '', 'http://']
    rows = rows * 3
    got = f.find_arrow(pa.array(rows, pa.string()))
    assert got.to_pylist() == row_by_row(f, rows)
    assert sum(len(r) for r in got.to_pylist()) >= 12


@pytest.mark.parametrize(
    "arrow_type",
    [pa.large_string(), pa.string_view(), pa.binary(), pa.large_binary(), pa.binary_view()],
    ids=str,
)
def test_every_text_type_gives_the_same(rows, arrow_type):
    """String types give what `find` gives on `str` (character offsets),
    binary types what it gives on the UTF-8 bytes (byte offsets)."""
    f = urifind.Finder(abbrev=True)
    some = rows[:20_000]
    got = f.find_arrow(pa.array(some, pa.string()).cast(arrow_type)).to_pylist()
    if pa.types.is_binary(arrow_type) or pa.types.is_large_binary(arrow_type) or \
            pa.types.is_binary_view(arrow_type):
        assert got == row_by_row(f, [None if r is None else r.encode() for r in some])
    else:
        assert got == row_by_row(f, some)


def test_options_apply_to_arrow(rows):
    some = rows[:5_000]
    for opts in [{"hyphen": "drop"}, {"abbrev": True}, {"schemes": "ftp"},
                 {"grammar": "rfc3986", "any_scheme": True}]:
        f = urifind.Finder(**opts)
        assert f.find_arrow(pa.array(some)).to_pylist() == row_by_row(f, some), opts


def test_hyphen_drop_reports_the_form_without_it():
    text = "See <http://www.example.com/read-\n me.txt> now."
    keep = urifind.Finder().find_arrow(pa.array([text])).to_pylist()[0][0]
    drop = urifind.Finder(hyphen="drop").find_arrow(pa.array([text])).to_pylist()[0][0]
    assert keep["uri"] == "http://www.example.com/read-me.txt"
    assert drop["uri"] == keep["without_hyphen"] == "http://www.example.com/readme.txt"


def test_offsets_count_characters_in_strings_and_bytes_in_binaries():
    text = "é文 <http://a.example/>"
    raw = text.encode("utf-8")
    (m,) = urifind.Finder().find_arrow(pa.array([text])).to_pylist()[0]
    assert text[m["start"]:m["end"]] == "http://a.example/"
    assert (m["span_start"], m["span_end"]) == (text.index("<"), len(text))
    assert raw[m["byte_start"]:m["byte_end"]] == b"http://a.example/"
    assert (m["byte_span_start"], m["byte_span_end"]) == (raw.index(b"<"), len(raw))
    (b,) = urifind.Finder().find_arrow(pa.array([raw])).to_pylist()[0]
    assert raw[b["start"]:b["end"]] == b"http://a.example/"
    assert (b["start"], b["end"]) == (b["byte_start"], b["byte_end"])


def test_sliced_and_chunked_inputs(rows):
    f = urifind.Finder()
    arr = pa.array(rows[:3_000])
    sliced = arr.slice(1_234, 1_000)
    assert f.find_arrow(sliced).to_pylist() == row_by_row(f, rows[1_234:2_234])
    chunked = pa.chunked_array([arr.slice(0, 1_000), arr.slice(1_000)])
    got = f.find_arrow(chunked)
    assert isinstance(got, pa.ChunkedArray) and got.num_chunks == 2
    assert got.to_pylist() == row_by_row(f, rows[:3_000])


def test_empty_and_null_inputs():
    f = urifind.Finder()
    assert f.find_arrow(pa.array([], pa.string())).to_pylist() == []
    assert f.find_arrow(pa.array([None, None], pa.string())).to_pylist() == [None, None]
    assert f.find_arrow(pa.nulls(3)).to_pylist() == [None] * 3
    empty = f.find_arrow(pa.chunked_array([], pa.string()))
    assert empty.num_chunks == 0 and empty.type == f.find_arrow(pa.array([""])).type


def test_the_struct_fields_are_the_match_fields():
    t = urifind.Finder().find_arrow(pa.array(["x"])).type
    assert [t.value_type.field(i).name for i in range(t.value_type.num_fields)] == list(
        urifind.MATCH_FIELDS
    )
    assert list(urifind.Finder().find("http://a.example/")[0].to_dict()) == list(urifind.MATCH_FIELDS)


def test_the_capsule_result_imports_without_a_copy_of_the_api():
    f = urifind.Finder()
    raw = f.find_arrow_c(pa.array(["see http://a.example/", None]))
    assert len(raw) == 2
    assert pa.array(raw).to_pylist() == f.find_arrow(pa.array(["see http://a.example/", None])).to_pylist()
    assert pa.DataType._import_from_c_capsule(raw.__arrow_c_schema__()) == pa.array(raw).type
    # exported twice, consumed twice
    assert pa.array(raw).equals(pa.array(raw))


def test_non_text_arrays_are_refused_with_the_types_named():
    f = urifind.Finder()
    with pytest.raises(TypeError, match="string, large_string, string_view, binary"):
        f.find_arrow(pa.array([1, 2]))
    with pytest.raises(TypeError, match="__arrow_c_array__"):
        f.find_arrow(["a list"])
    with pytest.raises(TypeError, match="one Arrow array"):
        f.find_arrow_c(pa.chunked_array([pa.array(["x"])]))


def project(result, names):
    """The full result's structs with only `names`, in that order."""
    return [
        None if row is None else [{n: m[n] for n in names} for m in row]
        for row in result.to_pylist()
    ]


# A link to unwrap and one with a link in its query after a thousand
# plain URIs (each link column is still all null when its first value
# comes), a hyphen at a line break, a quoted URI, and non-ASCII text
# before them.
LATE_LINKS = (
    ["é文 see http://plain.example/p%d for %d." % (i, i) for i in range(1_000)]
    + [None, ""]
    + [
        "Wrapped: <https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2F"
        "intranet.example.com%2Fhr&data=05%7C01&reserved=0> and "
        "https://login.example.net/auth?redirect_to=https%3A%2F%2Fevil.example%2F",
        'é "http://a.example/read-\n me" http://0x7f.1/x',
    ]
)


@pytest.mark.parametrize(
    "names",
    [
        ["uri", "start", "end"],
        ["end", "uri"],
        ["target", "flags", "start"],
        ["wrappers", "embedded", "host_as_read", "unwrap", "target_host"],
        ["message", "parts_seen", "shown", "uri"],
        ["byte_span_end", "without_hyphen", "context", "delimiter"],
        [],
    ],
    ids=lambda n: ",".join(n) or "none",
)
@pytest.mark.parametrize("options", [{}, {"browser_hosts": True, "hyphen": "both"}])
def test_a_selection_is_the_projection_of_the_full_result(rows, names, options):
    f = urifind.Finder(**options)
    arr = pa.array(rows[:5_000] + LATE_LINKS)
    full = f.find_arrow(arr)
    got = f.find_arrow(arr, fields=names)
    assert got.type.value_type.names == names
    assert [got.type.value_type.field(n) for n in names] == [
        full.type.value_type.field(n) for n in names
    ]
    assert got.to_pylist() == project(full, names)
    assert got.null_count == full.null_count
    binary = arr.cast(pa.binary())
    assert f.find_arrow(binary, fields=names).to_pylist() == project(
        f.find_arrow(binary), names
    )


def test_every_field_alone_is_its_column_of_the_full_result(rows):
    f = urifind.Finder()
    arr = pa.array(rows[:2_000] + LATE_LINKS)
    full = f.find_arrow(arr)
    flat = full.flatten()
    for name in urifind.MATCH_FIELDS:
        got = f.find_arrow(arr, fields=(n for n in [name]))
        assert got.flatten().field(name).equals(flat.field(name)), name
        assert got.offsets.equals(full.offsets), name
    # the late link columns do carry values
    assert flat.field("wrappers").drop_null().to_pylist() == [["safelinks"]]
    assert flat.field("target").drop_null().to_pylist()[0] == "https://intranet.example.com/hr"


def test_a_selection_in_mail_mode_streams_and_the_capsule_api():
    from test_mail_fields import MBOX

    f = urifind.Finder(mail=True)
    names = ["shown", "message_id", "parts_seen", "uri", "part"]
    arr = pa.array([MBOX, None, MBOX[:200]], pa.binary())
    full = f.find_arrow(arr)
    assert f.find_arrow(arr, fields=names).to_pylist() == project(full, names)
    assert any(m["shown"] for m in f.find_arrow(arr, fields=names)[0].as_py())
    chunked = pa.chunked_array([arr.slice(0, 1), arr.slice(1)])
    got = f.find_arrow(chunked, fields=names)
    assert got.num_chunks == 2 and got.to_pylist() == project(full, names)
    empty = f.find_arrow(pa.chunked_array([], pa.binary()), fields=names)
    assert empty.num_chunks == 0 and empty.type == got.type
    raw = f.find_arrow_c(arr, fields=names)
    assert pa.array(raw).to_pylist() == project(full, names)
    assert pa.DataType._import_from_c_capsule(raw.__arrow_c_schema__()) == got.type


def test_no_fields_count_the_matches(rows):
    f = urifind.Finder()
    arr = pa.array(rows[:3_000])
    counts = f.find_arrow(arr, fields=[]).to_pylist()
    assert [None if c is None else len(c) for c in counts] == [
        None if r is None else len(r) for r in f.find_arrow(arr).to_pylist()
    ]
    assert f.find_arrow(arr, fields=None).equals(f.find_arrow(arr))


def test_bad_field_selections_are_refused_clearly():
    f = urifind.Finder()
    arr = pa.array(["see http://a.example/"])
    with pytest.raises(ValueError, match=r'no match field is named "URI" .*uri, start'):
        f.find_arrow(arr, fields=["uri", "URI"])
    with pytest.raises(ValueError, match='"end" is asked for twice'):
        f.find_arrow_c(arr, fields=["end", "start", "end"])
    with pytest.raises(TypeError, match="not a string"):
        f.find_arrow(arr, fields="uri")
    with pytest.raises(TypeError, match="field names .strings., not int"):
        f.find_arrow(arr, fields=["uri", 3])
    with pytest.raises(TypeError, match="list of field names, not int"):
        f.find_arrow(arr, fields=3)
    # the refusal comes before the input is read
    with pytest.raises(ValueError, match="no match field"):
        f.find_arrow(pa.array([1]), fields=["nope"])


@pytest.mark.parametrize("options", [{}, {"iri": True}, {"hyphen": "drop"}])
def test_binary_rows_that_are_not_utf8_give_what_find_gives(options):
    """Bytes that are not UTF-8 next to and inside URIs and IRIs (Latin-1,
    a cut sequence, 0xff), with a rejoined and a hyphenated URI: each
    `uri` is the one `find` reports."""
    f = urifind.Finder(**options)
    rows = [
        b"see http://a.example/\xe9x and <http://b.example/\xff\xfe> http://\xc3\xa9.example/\xc3",
        b"\xe9http://c.example/a%\xe9 <http://d.example/\xc3\xa9/\n  x\xe9> <http://e.example/re-\n ad\xff>",
        None,
    ]
    got = f.find_arrow(pa.array(rows, pa.binary()), fields=["uri", "start"]).to_pylist()
    want = [
        None if r is None else [{"uri": m.uri, "start": m.start} for m in f.find(r)]
        for r in rows
    ]
    assert got == want
    assert sum(len(w) for w in want if w) >= 4
