"""How `scripts/bench --check` judges, with no measuring: each threshold against the figure it names, and a measure
past its threshold measured again and failed only when every measurement is past (scripts/bench_gate.py,
scripts/bench_check.py). Every expected verdict is worked out by hand from the figures written here.

Usage: python3 scripts/test_bench_judging.py      (in scripts/test, with the other checks)
"""
import pathlib
import sys
import unittest

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))

import bench_check  # noqa: E402
import bench_gate  # noqa: E402


class StandInSuite:
    """Gives each measure's next figures from a list, as bench_suite.Suite.measure would measure them again, and
    notes which measures it was asked for."""

    def __init__(self, figures):
        self.figures, self.asked = figures, []

    def measure(self, names):
        self.asked.append(sorted(names))
        return {name: self.figures[name].pop(0) for name in names}


def quiet(message):
    pass


class JudgeTests(unittest.TestCase):
    def test_a_threshold_judges_the_best_of_ratio_unless_it_names_the_median(self):
        thresholds = {"best": {"max": 10.0}, "median": {"max": 10.0, "of": "median"}, "floor": {"min": 1.2}}
        measures = {"best": {"value": 10.5, "median": 9.0}, "median": {"value": 13.3, "median": 10.1},
                    "floor": {"value": 1.19}}
        verdicts = {name: (value, passed) for name, value, _, passed in bench_gate.judge(measures, thresholds)}
        # 10.5 > 10 fails though its median passes; 10.1 > 10 fails on the median whatever the best-of;
        # 1.19 < 1.2 is below the floor.
        self.assertEqual(verdicts, {"best": (10.5, False), "median": (10.1, False), "floor": (1.19, False)})
        measures["median"]["median"] = 10.0
        self.assertTrue(dict((n, p) for n, _, _, p in bench_gate.judge(measures, thresholds))["median"])

    def test_a_measure_and_a_threshold_without_each_other_are_faults(self):
        verdicts = bench_gate.judge({"measured": {"value": 1.0}}, {"expected": {"max": 2.0}})
        self.assertEqual(sorted((name, passed) for name, _, _, passed in verdicts),
                         [("expected", None), ("measured", None)])


class ConfirmTests(unittest.TestCase):
    def test_a_measure_passing_once_measured_again_passes_with_every_figure_kept(self):
        thresholds = {"a": {"max": 10.0}, "b": {"max": 10.0}}
        measures = {"a": {"value": 11.0}, "b": {"value": 9.0}}
        suite = StandInSuite({"a": [{"value": 12.0}, {"value": 9.5}]})
        bench_check.confirm(suite, measures, thresholds, 2, quiet)
        # 11 and 12 are past 10, 9.5 is not: measured twice more, kept at 9.5; b was never past.
        self.assertEqual(suite.asked, [["a"], ["a"]])
        self.assertEqual(measures["a"], {"value": 9.5, "measured": [11.0, 12.0, 9.5]})
        self.assertEqual(measures["b"], {"value": 9.0})

    def test_a_measure_past_in_every_measurement_fails_at_its_nearest(self):
        thresholds = {"m": {"max": 10.0, "of": "median"}, "cores": {"min": 1.2}}
        measures = {"m": {"value": 20.0, "median": 10.4}, "cores": {"value": 1.0}}
        suite = StandInSuite({"m": [{"value": 9.0, "median": 10.8}, {"value": 8.0, "median": 10.2}],
                              "cores": [{"value": 1.1}, {"value": 1.05}]})
        bench_check.confirm(suite, measures, thresholds, 2, quiet)
        verdicts = {name: (value, passed) for name, value, _, passed in bench_gate.judge(measures, thresholds)}
        # The medians 10.4, 10.8, 10.2 are all past 10: it fails at 10.2, the nearest (the best-of figures,
        # all within 10, are not what this threshold judges); the floor's 1.0, 1.1, 1.05 are all below 1.2: 1.1.
        self.assertEqual(verdicts, {"m": (10.2, False), "cores": (1.1, False)})
        self.assertEqual(measures["m"]["measured"], [10.4, 10.8, 10.2])
        self.assertEqual(measures["cores"]["measured"], [1.0, 1.1, 1.05])

    def test_no_measure_past_its_threshold_measures_nothing_again(self):
        suite = StandInSuite({})
        measures = {"a": {"value": 1.0}}
        bench_check.confirm(suite, measures, {"a": {"max": 2.0}}, 2, quiet)
        self.assertEqual((suite.asked, measures), ([], {"a": {"value": 1.0}}))


if __name__ == "__main__":
    unittest.main(verbosity=1)
