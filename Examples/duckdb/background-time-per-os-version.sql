-- Time running in the background per OS version: runs, the total and the mean per run, in seconds.
SELECT os_version,
       count(*) AS runs,
       round(sum(background_ns) / 1e9, 3) AS background_s,
       round(avg(background_ns) / 1e9, 3) AS mean_per_run_s
FROM read_json_auto('summary.jsonl', sample_size = -1)
WHERE "row" = 'trace'
GROUP BY os_version
ORDER BY os_version;
