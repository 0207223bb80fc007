#!/usr/bin/env python3
"""Summarizes many lifetrace traces with Apache Spark and aggregates them into the distributions
`lifetrace compare --format json` prints, for when one machine is not enough.

The driver lists the traces of each side (files, or directories walked for *.lifetrace); Spark spreads them
over its executors; each partition runs `lifetrace summarize --files-from -` on its traces (the rows of
Schemas/summary.schema.json); Spark SQL turns the rows into one observation per trace and metric and computes
count, p50, p90 and p99 per side, as compare does (Spark's exact `percentile`).

    spark-submit scripts/spark/lifetrace_job.py --lifetrace /opt/lifetrace/bin/lifetrace \\
        --base /shared/runs/build-416 --new /shared/runs/build-417 -o comparison.json

Every executor needs the lifetrace binary at the --lifetrace path (or ship it with `--files` and pass
`--lifetrace ./lifetrace`) and must see the trace paths (a shared file system). Local mode for a try:
`python3 scripts/spark/lifetrace_job.py --master 'local[2]' ...`.
"""
import argparse
import json
import os
import shutil
import subprocess
import sys

from pyspark.sql import SparkSession
from pyspark.sql import types as T

SCHEMA_FILE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "Schemas", "summary.schema.json")


def row_schema(path):
    """The Spark schema of a summary row: the union of every row kind's columns, in the schema's order."""
    schema = json.load(open(path))
    fields, seen = [], set()
    for kind in schema["$defs"].values():
        for name, column in kind["properties"].items():
            if name in seen:
                continue
            seen.add(name)
            types = column.get("type", "string")
            types = types if isinstance(types, list) else [types]
            if "integer" in types or column.get("const") == 1:
                spark_type = T.LongType()
            elif "boolean" in types:
                spark_type = T.BooleanType()
            else:
                spark_type = T.StringType()
            fields.append(T.StructField(name, spark_type, True))
    return T.StructType(fields)


def traces(inputs):
    """The trace files of `inputs`: files as given, directories walked for *.lifetrace, in path order."""
    found = []
    for item in inputs:
        if os.path.isdir(item):
            for root, _, names in os.walk(item):
                found += [os.path.join(root, name) for name in names if name.endswith(".lifetrace")]
        else:
            found.append(item)
    return sorted(found) if all(os.path.isdir(item) for item in inputs) else found


def executable(lifetrace):
    """The binary on this executor: the path given, or the file of that name shipped with `--files`."""
    if os.path.isfile(lifetrace) or shutil.which(lifetrace):
        return lifetrace
    from pyspark import SparkFiles
    shipped = SparkFiles.get(os.path.basename(lifetrace))
    if os.path.isfile(shipped):
        os.chmod(shipped, 0o755)
        return shipped
    raise RuntimeError(f"no lifetrace binary at {lifetrace} on this executor, nor shipped with --files")


def summarize_partition(lifetrace):
    def run(items):
        items = list(items)
        if not items:
            return
        binary = executable(lifetrace)
        for side in ("base", "new"):
            paths = [path for s, path in items if s == side]
            if not paths:
                continue
            done = subprocess.run([binary, "summarize", "--files-from", "-", "--jobs", "1"],
                                  input="\n".join(paths) + "\n", capture_output=True, text=True)
            # 2: some traces could not be read; their error rows are in the output.
            if done.returncode not in (0, 2):
                raise RuntimeError(f"lifetrace summarize failed ({done.returncode}): {done.stderr.strip()}")
            for line in done.stdout.splitlines():
                row = json.loads(line)
                row["side"] = side
                yield row
    return run


OBSERVATIONS = """
    SELECT side, concat('handler ', handler) AS metric, mean_ns AS value FROM rows WHERE row = 'handler'
    UNION ALL
    SELECT side, concat('task ', task_kind), sum(duration_ns) div count(duration_ns) FROM rows
        WHERE row = 'task' AND duration_ns IS NOT NULL GROUP BY side, trace, task_kind
    UNION ALL
    SELECT side, 'launch', sum(launch_ns) div count(launch_ns) FROM rows
        WHERE row = 'process' AND launch_ns IS NOT NULL GROUP BY side, trace
    UNION ALL
    SELECT side, concat('readiness ', service), sum(ready_ns) div count(ready_ns) FROM rows
        WHERE row = 'service' AND ready_ns IS NOT NULL GROUP BY side, trace, service
    UNION ALL
    SELECT side, concat('shutdown ', service), sum(shutdown_ns) div count(shutdown_ns) FROM rows
        WHERE row = 'service' AND shutdown_ns IS NOT NULL GROUP BY side, trace, service
    UNION ALL
    SELECT side, 'state active', active_ns FROM rows WHERE row = 'trace'
    UNION ALL
    SELECT side, 'state inactive', inactive_ns FROM rows WHERE row = 'trace'
    UNION ALL
    SELECT side, 'state background', background_ns FROM rows WHERE row = 'trace'
    UNION ALL
    SELECT side, 'state suspended', suspended_ns FROM rows WHERE row = 'trace'
"""

DISTRIBUTIONS = """
    SELECT side, metric, count(*) AS count, percentile(value, 0.5) AS p50, percentile(value, 0.9) AS p90,
           percentile(value, 0.99) AS p99
    FROM observations GROUP BY side, metric
    UNION ALL
    SELECT side, concat('exit ', `end`), count(*), NULL, NULL, NULL FROM rows WHERE row = 'process' GROUP BY side, `end`
"""


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--base", nargs="+", required=True, help="the base runs: traces or directories")
    parser.add_argument("--new", nargs="+", required=True, help="the new runs: traces or directories")
    parser.add_argument("--lifetrace", default="lifetrace", help="the lifetrace binary on every executor")
    parser.add_argument("--partitions", type=int, default=0, help="partitions (default: Spark's parallelism)")
    parser.add_argument("--master", help="the Spark master when run without spark-submit, e.g. local[2]")
    parser.add_argument("--schema", default=SCHEMA_FILE, help="Schemas/summary.schema.json")
    parser.add_argument("-o", "--output", default="-", help="where to write the JSON (default: standard output)")
    arguments = parser.parse_args()

    builder = SparkSession.builder.appName("lifetrace")
    if arguments.master:
        builder = builder.master(arguments.master).config("spark.ui.enabled", "false")
    spark = builder.getOrCreate()
    spark.sparkContext.setLogLevel("ERROR")
    items = [("base", path) for path in traces(arguments.base)] + [("new", path) for path in traces(arguments.new)]
    partitions = arguments.partitions or spark.sparkContext.defaultParallelism
    rows = spark.sparkContext.parallelize(items, max(1, min(partitions, len(items)))) \
        .mapPartitions(summarize_partition(arguments.lifetrace))
    schema = row_schema(arguments.schema).add("side", T.StringType(), False)
    frame = spark.createDataFrame(rows.map(lambda row: tuple(row.get(field.name) for field in schema.fields)), schema)
    frame.createOrReplaceTempView("rows")
    spark.sql(OBSERVATIONS).createOrReplaceTempView("observations")
    metrics = {}
    for record in spark.sql(DISTRIBUTIONS).collect():
        metric = metrics.setdefault(record["metric"], {"metric": record["metric"]})
        metric[record["side"]] = {"count": record["count"], "p50": record["p50"], "p90": record["p90"], "p99": record["p99"]}
    traces_read = {side: count for side, count in
                   spark.sql("SELECT side, count(*) FROM rows WHERE row IN ('trace', 'error') GROUP BY side").collect()}
    result = {"lifetrace_spark": 1, "traces": {"base": traces_read.get("base", 0), "new": traces_read.get("new", 0)},
              "metrics": [metrics[name] for name in sorted(metrics)]}
    text = json.dumps(result, indent=1) + "\n"
    if arguments.output == "-":
        sys.stdout.write(text)
    else:
        with open(arguments.output, "w") as out:
            out.write(text)
    spark.stop()


if __name__ == "__main__":
    main()
