#!/usr/bin/env bash
# CI for the Python package: formatting and lints of its crate, an abi3
# wheel built with maturin, installed in a virtual environment (which
# also sees the system's packages), and the pytest suite, Spark included
# (Java is installed from the system packages when missing). Run from the
# repository root by .ci/run, or on its own: bash python/ci.sh
set -euo pipefail
cd "$(dirname "$0")/.."

echo "-- cargo fmt --check / clippy (python/)"
cargo fmt --check --manifest-path python/Cargo.toml
cargo clippy --quiet --manifest-path python/Cargo.toml --all-targets -- -D warnings

echo "-- Python environment"
if ! python3 -m venv --help >/dev/null 2>&1 || ! python3 -m pip --version >/dev/null 2>&1; then
    apt-get update -qq && apt-get install -y -qq python3-venv python3-pip >/dev/null
fi
venv=target/python-ci
rm -rf "$venv"
python3 -m venv --system-site-packages "$venv"
py="$venv/bin/python"
# maturin in the environment itself (its command is looked up there).
"$py" -m pip install --quiet --disable-pip-version-check --ignore-installed \
    "maturin>=1.5,<2"
"$py" -m pip install --quiet --disable-pip-version-check \
    "pytest>=7" "pyarrow>=14" "pyspark>=4.1" "pandas>=2.2,<3" \
    "fastwarc>=0.14"

if ! command -v java >/dev/null 2>&1 && [ -z "${JAVA_HOME:-}" ]; then
    echo "-- installing Java for the Spark tests"
    if ! { apt-get update -qq && apt-get install -y -qq openjdk-17-jre-headless >/dev/null; }; then
        echo "ci: could not install Java; the Spark tests will be skipped" >&2
    fi
fi

echo "-- maturin build --release (abi3 wheel)"
rm -rf target/wheels
"$venv/bin/maturin" build --release --quiet -m python/Cargo.toml -o target/wheels \
    --interpreter "$py"
"$py" -m pip install --quiet --disable-pip-version-check --force-reinstall --no-deps \
    target/wheels/urifind-*.whl

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
    "$py" "$cluster" pack
    "$py" "$cluster" check target/spark-cluster-ci.mbox
    "$py" "$cluster" stop
fi
