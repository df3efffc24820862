"""Find URIs in plain text, mail and news, the way a careful reader would,
and validate every one strictly.

>>> import urifind
>>> f = urifind.Finder()
>>> f.find_uris("see <http://a.example/very/\\n  long/path> and http://b.example/.")
['http://a.example/very/long/path', 'http://b.example/']

`Finder.find` returns `Match` objects (the fields of `MATCH_FIELDS`: URI,
offsets, where and how it was found, and in mail the message and part);
`Finder.find_arrow` scans every row of an Arrow array (pyarrow, Polars,
DuckDB, ...) and returns a `list<struct>` array of the matches (of the
fields named in `fields=[...]`, when given);
`validate` and `resolve` expose the URI grammar and section 5.2
resolution. `urifind.spark` has the Spark integration.
"""

from ._urifind import (
    FINDER_OPTIONS,
    MATCH_FIELDS,
    Error,
    Finder,
    InvalidURIError,
    Match,
    MatchArray,
    OptionError,
    ResolveError,
    Validation,
    resolve,
    validate,
)
from ._urifind import __version__

__all__ = [
    "FINDER_OPTIONS",
    "MATCH_FIELDS",
    "Error",
    "Finder",
    "InvalidURIError",
    "Match",
    "MatchArray",
    "OptionError",
    "ResolveError",
    "Validation",
    "find_uris",
    "resolve",
    "validate",
    "__version__",
]

_DEFAULT = None


def find_uris(text, **options):
    """The URIs in `text` (`str` or `bytes`) as strings, with a finder of
    the given options (a default finder is built once and kept)."""
    global _DEFAULT
    if options:
        return Finder(**options).find_uris(text)
    if _DEFAULT is None:
        _DEFAULT = Finder()
    return _DEFAULT.find_uris(text)
