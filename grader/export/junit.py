"""JUnit XML: the format every CI server, IDE and LMS plug-in already knows how to show.

One ``<testcase>`` per grader check, named after the check, so a CI test tab lists the
rubric. A failed check carries its feedback (message, smallest tree, likely mistakes) as the
failure text; a skipped check says which checks it waits for; a submission that could not
be graded at all becomes a single errored test case, so the run is never silently green.
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET

from grader.report.feedback import check_text, error_text
from grader.judging.result import SubmissionResult


def to_junit(result: SubmissionResult) -> str:
    suites = ET.Element("testsuites", name="minimax-grader")
    # Every attribute that holds a name the student chose (the file's) is made XML-safe as the texts are: a control
    # character in a file name made the whole document unreadable (the hundred and tenth helper)
    suite = ET.SubElement(suites, "testsuite", name=_xml_safe(f"{result.exercise}: {result.submission}"))
    properties = ET.SubElement(suite, "properties")
    for key, value in (("exercise", result.exercise), ("submission", result.submission), ("status", result.status),
                       ("score", f"{result.score:g}"), ("max_score", f"{result.max_score:g}"),
                       ("seed", "" if result.seed is None else str(result.seed)), ("grader_version", result.grader_version)):
        ET.SubElement(properties, "property", name=key, value=_xml_safe(value))

    classname = f"minimax-grader.{result.exercise}"
    counts = {"tests": 0, "failures": 0, "errors": 0, "skipped": 0}
    if result.status == "error" and not result.checks:
        case = ET.SubElement(suite, "testcase", classname=classname, name="grading", time="0")
        ET.SubElement(case, "error", message=_one_line(result.error or "error"), type="GradingError").text = _xml_safe(error_text(result))
        counts["tests"], counts["errors"] = 1, 1
    for check in result.checks:
        counts["tests"] += 1
        case = ET.SubElement(suite, "testcase", classname=classname, name=_xml_safe(check.name), time="0")
        points = ET.SubElement(case, "properties")
        # score and max_score as the pytest plugin records them for each of its items (a CI reading both doors'
        # reports reads one pair of names); points, the two as one text, as this format always said them
        for key, value in (("score", f"{check.score:g}"), ("max_score", f"{check.max_score:g}"),
                           ("points", f"{check.score:g}/{check.max_score:g}")):
            ET.SubElement(points, "property", name=key, value=value)
        if check.status == "failed":
            counts["failures"] += 1
            ET.SubElement(case, "failure", message=_one_line(check.message), type="CheckFailed").text = _xml_safe(check_text(result, check))
        elif check.status == "error":
            counts["errors"] += 1
            ET.SubElement(case, "error", message=_one_line(check.message), type="CheckError").text = _xml_safe(check_text(result, check))
        elif check.status == "skipped":
            counts["skipped"] += 1
            ET.SubElement(case, "skipped", message=_one_line(check.message))
    for element in (suites, suite):
        for key, value in counts.items():
            element.set(key, str(value))
        element.set("time", f"{result.duration_seconds:.3f}")
    output = result.output or {}
    if output.get("stdout"):
        ET.SubElement(suite, "system-out").text = _xml_safe(output["stdout"])
    if output.get("stderr"):
        ET.SubElement(suite, "system-err").text = _xml_safe(output["stderr"])
    ET.indent(suites)
    return '<?xml version="1.0" encoding="utf-8"?>\n' + ET.tostring(suites, encoding="unicode") + "\n"


# Characters XML 1.0 cannot carry at all; a student's print() can produce any of them.
_NOT_XML = re.compile("[^\t\n\r\x20-\ud7ff\ue000-\ufffd\U00010000-\U0010ffff]")


def _xml_safe(text: str) -> str:
    return _NOT_XML.sub("\ufffd", text)


def _one_line(text: str | None, limit: int = 300) -> str:
    line = _xml_safe(" ".join((text or "").split()))
    return line if len(line) <= limit else line[: limit - 1] + "…"
