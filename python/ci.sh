#!/usr/bin/env bash
# CI for the Python package: formatting and lints of its crate (its
# Cargo.lock must be current: --locked), then the package installed the
# way the README tells users, `pip install './python[spark,test]'` (pip
# builds it through maturin) in a fresh virtual environment that sees no
# system packages, a check that the install left the clone as it was,
# and the pytest suite, Spark included (Java is installed from the system
# packages when missing). Run from the repository root by .ci/run, or on
# its own: bash python/ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."

echo "-- cargo fmt --check / clippy / doc / test, --locked (python/)"
cargo fmt --check --manifest-path python/Cargo.toml
cargo clippy --locked --quiet --manifest-path python/Cargo.toml --all-targets -- -D warnings
RUSTDOCFLAGS="-D warnings" cargo doc --locked --no-deps --lib --quiet --manifest-path python/Cargo.toml
cargo test --locked --quiet --manifest-path python/Cargo.toml

echo "-- Python environment"
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-venv python3-pip >/dev/null
fi
venv=target/python-ci
rm -rf "$venv"
python3 -m venv "$venv"
py="$venv/bin/python"

if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
    echo "-- installing Java for the Spark tests"
    if ! { apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }; then
        echo "ci: could not install Java; the Spark tests will be skipped" >&2
    fi
fi

echo "-- pip install './python[spark,test]' (as the README says)"
clone_state() { git status --porcelain --untracked-files=all 2>/dev/null || true; }
before=$(clone_state)
"$py" -m pip install --quiet --disable-pip-version-check "./python[spark,test]"
after=$(clone_state)
if [ "$before" != "$after" ]; then
    echo "ci: pip install ./python changed the clone:" >&2
    diff <(echo "$before") <(echo "$after") >&2 || true
    exit 1
fi

echo "-- pytest python/tests"
cargo build --release --quiet --bin urifind
export URIFIND_BIN="$PWD/target/release/urifind"
export PATH="$PWD/$venv/bin:$PATH"
export PYSPARK_PYTHON="$PWD/$py"
status=0
"$py" -m pytest python/tests -p no:cacheprovider -q -rs \
    --junitxml=target/pytest.xml || status=$?
if [ "$status" -eq 5 ]; then
    echo "ci: pytest collected no tests" >&2
    exit 1
elif [ "$status" -ne 0 ]; then
    exit "$status"
fi
"$py" - <<'PY'
import sys
import xml.etree.ElementTree as ET

suite = ET.parse("target/pytest.xml").getroot()
suite = suite if suite.tag == "testsuite" else suite.find("testsuite")
ran = int(suite.get("tests")) - int(suite.get("skipped"))
if ran < 50:
    sys.exit(f"ci: pytest ran only {ran} tests")
PY

if command -v java >/dev/null 2>&1 || [ -n "${JAVA_HOME:-}" ]; then
    echo "-- standalone Spark cluster: the example job equals urifind --mail"
    cluster=python/benches/spark_cluster.py
    "$py" "$cluster" stop
    trap '"$py" "$cluster" stop' EXIT
    "$py" "$cluster" mkmbox target/spark-cluster-ci.mbox 12M
    "$py" "$cluster" start --workers 2 --cores 1 --memory 2g
    # The wheel Spark users ship (pip builds it with maturin in python/target,
    # which the install above left warm).
    rm -rf target/wheels
    "$py" -m pip wheel --quiet --disable-pip-version-check --no-deps \
        ./python -w target/wheels
    "$py" "$cluster" pack
    "$py" "$cluster" check target/spark-cluster-ci.mbox
    "$py" "$cluster" stop
fi
