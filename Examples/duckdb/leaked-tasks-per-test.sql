-- Background tasks never ended, per test: the tests whose runs leak them, worst first.
SELECT test_name,
       count(*) AS leaked_tasks,
       count(DISTINCT trace) AS runs
FROM read_json_auto('summary.jsonl', sample_size = -1)
WHERE "row" = 'task' AND NOT ended
GROUP BY test_name
ORDER BY leaked_tasks DESC, test_name;
