"""Type stubs of the native module (re-exported by `urifind`)."""

from typing import Any, Iterable, Optional, Union

Text = Union[str, bytes, bytearray, memoryview]

MATCH_FIELDS: list[str]
FINDER_OPTIONS: list[str]
__version__: str

class Error(ValueError): ...
class OptionError(Error): ...
class ResolveError(Error): ...

class InvalidURIError(Error):
    offset: int
    reason: str

class Match:
    # The fields, in the order of MATCH_FIELDS (a test holds the two equal).
    uri: str
    start: int
    end: int
    span_start: int
    span_end: int
    byte_start: int
    byte_end: int
    byte_span_start: int
    byte_span_end: int
    context: str
    delimiter: str
    without_hyphen: Optional[str]
    message: Optional[int]
    message_id: Optional[str]
    part: Optional[str]
    content_type: Optional[str]
    encoding: Optional[str]
    shown: Optional[str]
    parts_seen: Optional[list[str]]
    target: Optional[str]
    wrappers: Optional[list[str]]
    unwrap: Optional[str]
    target_host: Optional[str]
    embedded: Optional[list[str]]
    host_as_read: Optional[str]
    flags: Optional[list[str]]
    def __init__(self, *fields: Any, **named: Any) -> None: ...
    @property
    def span(self) -> tuple[int, int]: ...
    def to_dict(self) -> dict[str, Any]: ...

class MatchArray:
    def __arrow_c_array__(self, requested_schema: Any = None) -> tuple[Any, Any]: ...
    def __arrow_c_schema__(self) -> Any: ...
    def __len__(self) -> int: ...

class Finder:
    # The options, in the order of FINDER_OPTIONS (a test holds the two equal).
    grammar: str
    schemes: Optional[list[str]]
    any_scheme: bool
    abbrev: bool
    iri: bool
    mail: bool
    hyphen: str
    browser_hosts: bool
    def __init__(
        self,
        *,
        grammar: str = "rfc2396bis",
        schemes: Union[None, str, Iterable[str]] = None,
        any_scheme: bool = False,
        abbrev: bool = False,
        iri: bool = False,
        mail: bool = False,
        hyphen: str = "keep",
        browser_hosts: bool = False,
    ) -> None: ...
    def find(self, text: Text) -> list[Match]: ...
    def find_uris(self, text: Text) -> list[str]: ...
    def find_arrow(
        self, array: Any, fields: Optional[Iterable[str]] = None
    ) -> Any: ...
    def find_arrow_c(
        self, array: Any, fields: Optional[Iterable[str]] = None
    ) -> MatchArray: ...

class Validation:
    ok: bool
    offset: Optional[int]
    reason: Optional[str]
    part: Optional[str]
    scheme: Optional[str]
    authority: Optional[str]
    userinfo: Optional[str]
    host: Optional[str]
    port: Optional[str]
    path: Optional[str]
    query: Optional[str]
    fragment: Optional[str]
    def __bool__(self) -> bool: ...
    def components(self) -> dict[str, Optional[str]]: ...

def validate(
    s: Text, grammar: str = "rfc2396bis", absolute: bool = False, scheme_rules: bool = False
) -> Validation: ...
def resolve(
    base: Text, ref: Text, grammar: str = "rfc2396bis", compat: bool = False, normalize: bool = False
) -> str: ...
