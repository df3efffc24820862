"""Offsets of a match in a `str` are character offsets into that `str`
(`text[m.start:m.end]` is the URI's text), in a `bytes` byte offsets; the
byte offsets stay available; the conversion is linear."""

import time

import pytest

import urifind

PREFIX = "Grüße aus Köln — 日本語, 𝄞 ♥ "


@pytest.mark.parametrize("options", [{}, {"iri": True}, {"abbrev": True}], ids=str)
def test_str_offsets_index_the_str(options):
    text = PREFIX + "see <http://a.example/x\n  y> and «http://b.example/x»? 文 http://c.example/."
    ms = urifind.Finder(**options).find(text)
    assert len(ms) == 3
    raw = text.encode()
    for m in ms:
        assert m.start < m.byte_start  # non-ASCII before every URI
        assert "".join(text[m.start:m.end].split()) == m.uri
        assert raw[m.byte_start:m.byte_end].decode() == text[m.start:m.end]
        assert raw[m.byte_span_start:m.byte_span_end].decode() == text[m.span_start:m.span_end]
    assert text[ms[0].span_start:ms[0].span_end] == "<http://a.example/x\n  y>"


def test_bytes_offsets_count_bytes():
    raw = (PREFIX + "see <http://a.example/>").encode()
    (m,) = urifind.Finder().find(raw)
    assert raw[m.start:m.end] == b"http://a.example/"
    assert (m.start, m.end, m.span_start, m.span_end) == (
        m.byte_start, m.byte_end, m.byte_span_start, m.byte_span_end)
    assert urifind.Finder().find(bytearray(raw))[0] == m


def test_mail_offsets_in_a_str_index_the_str():
    msg = (
        "Subject: Grüße\nMessage-ID: <m1@example.org>\n"
        "Content-Type: text/plain; charset=utf-8\nContent-Transfer-Encoding: 8bit\n\n"
        "Schöne Grüße, see <https://ü.example.org/ok> — 日本\nhttps://second.example/\n"
    )
    ms = urifind.Finder(mail=True).find(msg)
    assert [m.uri for m in ms][-1] == "https://second.example/"
    for m in ms:
        assert text_of(msg, m) == m.uri
        assert m.message == 1 and m.message_id == "m1@example.org"


def text_of(s, m):
    return s[m.start:m.end]


def test_surrogate_pairs_and_combining_marks_count_as_python_does():
    text = "e\u0301 \U0001F600\U0001F600 http://a.example/ \U0001F600 <http://b.example/>"
    for m in urifind.Finder().find(text):
        assert text[m.start:m.end] == m.uri


def best(f, n=3):
    t = []
    for _ in range(n):
        t0 = time.perf_counter()
        f()
        t.append(time.perf_counter() - t0)
    return min(t)


def test_the_conversion_is_linear():
    """Character offsets cost a pass over the text, not one per match: on
    1.3 MB of non-ASCII text with 40,000 URIs, a `str` (offsets converted)
    takes a small multiple of the same text as `bytes` (none converted);
    counting from the start for every match would take hundreds of times
    as long. Timed interleaved, best of five, so load hits both alike."""
    f = urifind.Finder()
    text = "é文 see http://a.example/p and <http://b.example/q> 𝄞\n" * 20_000
    raw = text.encode()
    ms = f.find(text)
    assert len(ms) == 40_000 and text[ms[-1].start:ms[-1].end] == "http://b.example/q"
    t_str = t_bytes = float("inf")
    for _ in range(5):
        t_str = min(t_str, best(lambda: f.find(text), 1))
        t_bytes = min(t_bytes, best(lambda: f.find(raw), 1))
    assert t_str < 10 * t_bytes, (t_str, t_bytes)
