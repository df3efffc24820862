"""The `mbox` Spark data source (`spark.read.format("mbox")`) over the
splittable reader of `urifind.mbox_source`, in a module of its own so
that the executors' Python workers that run `read_mbox` and
`find_mbox_uris` never import Spark's data source API. Register it with
`urifind.mbox_source.register(spark)`; the options are described there.
"""

from pyspark.sql.datasource import DataSource, DataSourceReader, InputPartition

from urifind.mbox_source import (
    _DEFAULTS, SCHEMA, _size, _truthy, plan, read_ranges, split_size_for, tasks,
)

__all__ = ["MboxDataSource"]


class _Range(InputPartition):
    def __init__(self, value):
        super().__init__(value)


class _Reader(DataSourceReader):
    def __init__(self, options):
        # Spark's options are case-insensitive (and come lower-cased).
        self.options = {k.lower(): v for k, v in options.items()}

    def _get(self, name, default):
        return self.options.get(name.lower(), default)

    def _opt(self, name):
        return _size(self._get(name, _DEFAULTS[name]))

    def partitions(self):
        path = self._get("path", None)
        if not path:
            raise ValueError("mbox: no path given (load(path))")
        split = self._opt("splitSize")
        ranges = plan(
            [p.strip() for p in path.split(",")],  # load([a, b]) passes a list as text
            split_size=split,
            recursive=_truthy(self._get("recursiveFileLookup", "false")),
            index=_truthy(self._get("index", "true")),
            window=self._opt("windowSize"),
            min_partitions=int(self._get("minPartitions", "1")),
        )
        split = split_size_for(sum(r[2] - r[1] for r in ranges), split,
                               int(self._get("minPartitions", "1")))
        return [_Range(t) for t in tasks(ranges, split)] or [_Range([])]

    def read(self, partition):
        yield from read_ranges(partition.value, window=self._opt("windowSize"),
                               limit=self._opt("maxMessageSize"),
                               split_size=self._opt("splitSize"))


class MboxDataSource(DataSource):
    """`spark.read.format("mbox")`: one row per mail message of the mbox
    files at the path (the options are described in `urifind.mbox_source`)."""

    @classmethod
    def name(cls):
        return "mbox"

    def schema(self):
        return SCHEMA

    def reader(self, schema):
        return _Reader(self.options)
