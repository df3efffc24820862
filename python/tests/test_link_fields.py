"""Where a link leads, on a match: `target`, `wrappers`, `unwrap`,
`target_host`, `embedded`, `host_as_read` and `flags` equal the command's
JSON on the same text (a Safe Links wrapper, a URL Defense v2 wrapper, an
embedded `?redirect_to=` link, numeric hosts under `browser_hosts`, and a
spoofed wrapper host), in `find` and in `find_arrow`'s structs (the Spark
UDF is tested in test_spark.py)."""

import json
import subprocess

import pyarrow as pa
import pytest

import urifind

from test_cases import LINK_FIELDS, json_fields

TEXT = (
    b"Meeting notes: <https://eur01.safelinks.protection.outlook.com/?url=https%3A%2F%2F"
    b"intranet.example.com%2Fhr%2Fplan%3Fq%3D1&data=05%7C01%7Cx&reserved=0>\n"
    b"Proofpoint: https://urldefense.proofpoint.com/v2/url?u=https-3A__docs.example.org_a-2Db"
    b"_c-3Fid-3D7&d=DwMFaQ&c=abc&r=def&m=ghi&s=jkl&e=\n"
    b"Log in: https://login.example.net/auth?redirect_to=https%3A%2F%2Fevil.example%2Fsteal"
    b"&lang=en\n"
    b"Spoofed: https://safelinks.protection.outlook.com.evil.example/?url=https%3A%2F%2F"
    b"a.example%2F&data=0\n"
    b"Plain: http://www.example.com/index.html and mailto:someone@example.org\n"
    b"Numeric: http://2130706433/login http://0x7f.0.0.1/a http://%77%77%77.example.com/c\n"
)

# The finder's keywords and the command's flags for the same options.
SETS = [({}, []), ({"browser_hosts": True}, ["--browser-hosts"])]


def cli_json(cli, flags, data, tmp_path):
    path = tmp_path / "links.txt"
    path.write_bytes(data)
    out = subprocess.run([str(cli), "--json", *flags, str(path)], capture_output=True)
    assert out.returncode == 0, out.stderr.decode()
    return [json_fields(json.loads(line), False) for line in out.stdout.splitlines()]


@pytest.mark.parametrize("options,flags", SETS, ids=["default", "browser_hosts"])
def test_link_fields_equal_the_commands_json(cli, tmp_path, options, flags):
    want = cli_json(cli, flags, TEXT, tmp_path)
    f = urifind.Finder(**options)
    got = [m.to_dict() for m in f.find(TEXT)]
    assert got == want
    # str input: the same link fields (offsets are characters there, and
    # the text is ASCII)
    assert [m.to_dict() for m in f.find(TEXT.decode())] == want
    by_uri = {m["uri"]: m for m in got}
    safe = next(m for u, m in by_uri.items() if "safelinks.protection.outlook.com/" in u
                and u.startswith("https://eur01"))
    assert safe["target"] == "https://intranet.example.com/hr/plan?q=1"
    assert safe["wrappers"] == ["safelinks"] and safe["unwrap"] == "decoded"
    assert safe["target_host"] == "intranet.example.com" and "wrapped" in safe["flags"]
    pp = next(m for u, m in by_uri.items() if "urldefense.proofpoint.com" in u)
    assert pp["target"] == "https://docs.example.org/a-b/c?id=7"
    assert pp["wrappers"] == ["urldefense-v2"]
    login = next(m for u, m in by_uri.items() if u.startswith("https://login.example.net/"))
    assert login["embedded"] == ["https://evil.example/steal"] and login["target"] is None
    assert "embedded" in login["flags"]
    # a host that only looks like the wrapper's is not unwrapped
    spoof = next(m for u, m in by_uri.items() if "outlook.com.evil.example" in u)
    assert spoof["target"] is None and spoof["wrappers"] is None
    plain = by_uri["http://www.example.com/index.html"]
    assert all(plain[k] is None for k in LINK_FIELDS)
    numeric = [m for u, m in by_uri.items() if u.startswith(("http://2130706433", "http://0x7f"))]
    if options.get("browser_hosts"):
        assert [m["host_as_read"] for m in numeric] == ["127.0.0.1", "127.0.0.1"]
        assert all("numeric" in m["flags"] for m in numeric)
        assert by_uri["http://%77%77%77.example.com/c"]["host_as_read"] == "www.example.com"
    else:
        assert numeric == []


def test_link_fields_as_attributes():
    (m,) = urifind.Finder(browser_hosts=True).find("see http://0x7f.0.0.1/a now")
    assert (m.uri, m.host_as_read, m.target) == ("http://0x7f.0.0.1/a", "127.0.0.1", None)
    assert isinstance(m.flags, list) and "numeric" in m.flags
    assert urifind.Finder(browser_hosts=True).browser_hosts is True
    assert urifind.Finder().browser_hosts is False
    with pytest.raises(TypeError):
        urifind.Finder(browser_hosts="yes")
    for name in LINK_FIELDS:
        assert name in urifind.MATCH_FIELDS


@pytest.mark.parametrize("options", [{}, {"browser_hosts": True}], ids=["default", "browser_hosts"])
def test_find_arrow_structs_carry_the_link_fields(options):
    f = urifind.Finder(**options)
    rows = [TEXT, None, b"nothing", TEXT.decode().upper().encode()]
    got = f.find_arrow(pa.array(rows, pa.binary())).to_pylist()
    want = [None if r is None else [m.to_dict() for m in f.find(r)] for r in rows]
    assert got == want
    assert any(m["wrappers"] == ["urldefense-v2"] for m in got[0])
    assert any(m["embedded"] for m in got[0])
    t = f.find_arrow(pa.array([TEXT], pa.binary())).type.value_type
    for name in ["wrappers", "embedded", "flags"]:
        assert pa.types.is_list(t.field(name).type)


def test_a_crafted_deep_wrapper_ends(cli, tmp_path):
    """Wrappers nested past the limit, and a query of a thousand embedded
    links: answers equal the command's, found without blowing up."""
    inner = "https://a.example/"
    for _ in range(8):
        from urllib.parse import quote

        inner = ("https://eur01.safelinks.protection.outlook.com/?url="
                 + quote(inner, safe="") + "&data=0")
    many = "https://x.example/?" + "&".join(
        f"u{i}=https%3A%2F%2Fh{i}.example%2F" for i in range(1000))
    data = f"{inner}\n{many}\n".encode()
    want = cli_json(cli, [], data, tmp_path)
    got = [m.to_dict() for m in urifind.Finder().find(data)]
    assert got == want
    assert got[0]["unwrap"] is not None and len(got[0]["wrappers"]) >= 5
    assert len(got[1]["embedded"]) >= 1
