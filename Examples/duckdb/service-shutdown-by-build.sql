-- Service shutdowns by build: per build and service, how many drains ended, the median and 90th percentile of
-- the time from the group's shutdown request to the service's stop, and the longest, in milliseconds: what an
-- orchestrator's grace period (Kubernetes' terminationGracePeriodSeconds, systemd's TimeoutStopSec) bounds.
SELECT build,
       service,
       count(*) AS drains,
       round(quantile_cont(shutdown_ns, 0.5) / 1e6, 1) AS p50_ms,
       round(quantile_cont(shutdown_ns, 0.9) / 1e6, 1) AS p90_ms,
       round(max(shutdown_ns) / 1e6, 1) AS longest_ms
FROM read_json_auto('summary.jsonl', sample_size = -1)
WHERE "row" = 'service' AND shutdown_ns IS NOT NULL
GROUP BY build, service
ORDER BY build, service;
