"""In mail mode a match says where it was found, as the command's JSON
does: message, Message-ID, part, content type, encoding, context (where),
delimiter (how), shown, parts_seen; in `find`, in `find_arrow`'s structs
(and so in the Spark UDF, tested in test_spark.py)."""

import subprocess

import pyarrow as pa

import urifind

from test_cases import json_fields

# A phishing-shaped message: an HTML link whose visible text shows another
# URI, quoted-printable debris, a List-Unsubscribe header, and a second
# message in the same mbox.
MBOX = (
    b"From a@example.org Tue Nov  3 10:00:00 2026\n"
    b"Message-ID: <m1@example.org>\n"
    b"List-Unsubscribe: <https://lists.example.org/unsub?id=7>\n"
    b"MIME-Version: 1.0\n"
    b'Content-Type: multipart/alternative; boundary="b1"\n\n'
    b"--b1\nContent-Type: text/plain; charset=utf-8\n"
    b"Content-Transfer-Encoding: quoted-printable\n\n"
    b"Log in at https://bank.example.com/login?id=3D210337 now.\n"
    b"--b1\nContent-Type: text/html; charset=utf-8\n"
    b"Content-Transfer-Encoding: quoted-printable\n\n"
    b'<p>Log in at <a href=3D"https://evil.example.net/steal">https://bank.ex=\n'
    b'ample.com/login</a>.<img src=3D"https://cdn.example.net/x.png"></p>\n'
    b"--b1--\n\n"
    b"From b@example.org Tue Nov  3 11:00:00 2026\n"
    b"Subject: two\n\nplain <http://two.example/>\n\n"
)


def test_mail_matches_equal_the_commands_json(cli, tmp_path):
    path = tmp_path / "m.mbox"
    path.write_bytes(MBOX)
    out = subprocess.run([str(cli), "--mail", "--json", str(path)], capture_output=True)
    assert out.returncode == 0, out.stderr.decode()
    import json

    want = [json_fields(json.loads(line), True) for line in out.stdout.splitlines()]
    got = [m.to_dict() for m in urifind.Finder(mail=True).find(MBOX)]
    assert got == want
    assert len(got) >= 4


def test_where_a_uri_was_found():
    ms = urifind.Finder(mail=True).find(MBOX)
    by_uri = {m.uri: m for m in ms}
    unsub = by_uri["https://lists.example.org/unsub?id=7"]
    assert (unsub.context, unsub.delimiter, unsub.part, unsub.content_type) == (
        "header:List-Unsubscribe", "angle", "", "")
    evil = by_uri["https://evil.example.net/steal"]
    assert (evil.message, evil.message_id, evil.part, evil.context) == (
        1, "m1@example.org", "2", "html-href")
    assert evil.content_type == "text/html" and evil.encoding == "quoted-printable"
    # the phishing signal: a link target that shows another URI
    assert evil.shown == "https://bank.example.com/login"
    assert all(m.uri != "https://bank.example.com/login?id=3D210337" for m in ms)
    two = by_uri["http://two.example/"]
    assert (two.message, two.message_id, two.context, two.part) == (2, None, "text", "1")
    assert MBOX[two.start:two.end] == b"http://two.example/"


def test_find_arrow_structs_carry_the_same_fields():
    f = urifind.Finder(mail=True)
    rows = [MBOX, None, b"no mail here http://x.example/"]
    got = f.find_arrow(pa.array(rows, pa.binary())).to_pylist()
    assert got == [None if r is None else [m.to_dict() for m in f.find(r)] for r in rows]
    assert any(m["shown"] for m in got[0])
    t = f.find_arrow(pa.array([MBOX], pa.binary())).type.value_type
    assert [t.field(i).name for i in range(t.num_fields)] == list(urifind.MATCH_FIELDS)
    for name in ["message", "message_id", "part", "content_type", "context", "delimiter", "shown"]:
        assert name in urifind.MATCH_FIELDS


def test_match_round_trips_by_name_and_position():
    import pickle

    (m, *_) = urifind.Finder(mail=True).find(MBOX)
    assert urifind.Match(**m.to_dict()) == m
    assert urifind.Match(*m.to_dict().values()) == m
    assert pickle.loads(pickle.dumps(m)) == m
    short = urifind.Match(uri="http://a/", start=0, end=9, span_start=0, span_end=9,
                          byte_start=0, byte_end=9, byte_span_start=0, byte_span_end=9,
                          context="text", delimiter="bare")
    assert short.message is None and short.parts_seen is None
