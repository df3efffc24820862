//! The exceptions the package raises. Every one is a `ValueError` (the
//! input or an option was wrong), and each message is the command's own
//! wording for the same fault.

use pyo3::create_exception;
use pyo3::exceptions::PyValueError;

create_exception!(
    urifind,
    Error,
    PyValueError,
    "Base class of the errors urifind raises (a `ValueError`)."
);
create_exception!(
    urifind,
    OptionError,
    Error,
    "An option has a value urifind does not accept (an unknown grammar, \
     an invalid scheme name, options that contradict each other)."
);
create_exception!(
    urifind,
    ResolveError,
    Error,
    "`resolve` was given a base that is not an absolute URI."
);
create_exception!(
    urifind,
    InvalidURIError,
    Error,
    "`resolve` was given a reference that is not a URI reference; \
     `offset` and `reason` say where and why."
);
