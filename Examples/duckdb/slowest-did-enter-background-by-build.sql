-- The slowest scene.didEnterBackground by build: per build, how many runs called it, the median and 90th
-- percentile of each run's mean, and the longest single call, in milliseconds.
SELECT build,
       count(*) AS runs,
       round(quantile_cont(mean_ns, 0.5) / 1e6, 1) AS p50_ms,
       round(quantile_cont(mean_ns, 0.9) / 1e6, 1) AS p90_ms,
       round(max(max_ns) / 1e6, 1) AS longest_ms
FROM read_json_auto('summary.jsonl', sample_size = -1)
WHERE "row" = 'handler' AND handler = 'scene.didEnterBackground'
GROUP BY build
ORDER BY p90_ms DESC;
