#!/usr/bin/python3
"""The diagnostic catalogue's survey, check and conversion tool (issue 16, step 4).

src/base/diag_codes.def is the one table of diagnostic codes (code, severity, message format,
hint, since, doc source). This tool reads the C++ sources and docs/error-codes.md against it:

  diag_codes.py survey   every code a source emits (literal or catalogue name), its sites,
                         and how that compares with the catalogue and docs/error-codes.md
  diag_codes.py check    fails (exit 1) when src/ has a diagnostic code literal outside the
                         catalogue (printing file:line and the replacement), when an emitted
                         code has no catalogue row, or when docs/error-codes.md disagrees with
                         the catalogue (a documented code without a row, a row whose Message /
                         Hint / Since / Doc source differs from the doc's)
  diag_codes.py selftest plants a literal, an uncatalogued code and a stale doc cell in a copy of
                         the tree and fails unless `check` reports each
  diag_codes.py doc      rewrites the generated section of docs/error-codes.md (the rows that no
                         hand-written table documents)
  diag_codes.py convert [FILES]
                         rewrites code literals at emission sites to `diag::Code::NAME`
                         (the same text after rendering; see src/base/diag_codes.h). Re-runnable:
                         run it after merging a branch that added literal codes.

Python exception types (`raise("TypeError", ...)`) are Python semantics (the class `except`
matches), not project codes: they are listed in the catalogue as kind `python` and their
raise() sites keep the type name, but every type raised must have a row.
"""
import os
import re
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SRC = os.path.join(ROOT, "src")
DEF = os.path.join(SRC, "base", "diag_codes.def")
DOC = os.path.join(ROOT, "docs", "error-codes.md")

# Folders whose "codes" are not kernel diagnostics: HTTP error bodies of the server, dataset
# rejection reasons of the trainer export, field names of task.json errors. They have their
# own vocabularies.
NOT_DIAGNOSTICS = ("src/serve/", "src/train/", "src/task/task_spec.cpp")

# Emission forms whose code argument is a literal (or, once converted, diag::Code::NAME).
CODE = r'(?:"(?P<lit>[A-Za-z_][A-Za-z0-9_]*)"|diag::Code::(?P<name>\w+))'
EMITTERS = [
    ("nki_error", re.compile(r'\bnki_error\(\s*' + CODE)),
    ("current_error", re.compile(r'\bcurrent_error\(\s*' + CODE)),
    ("raise_code", re.compile(r'\braise_code\(\s*' + CODE)),
    ("fail_here", re.compile(r'\bfail_here\(\s*' + CODE)),
    ("fail", re.compile(r'(?:\.|->|\b)fail\(\s*' + CODE)),
    ("warn", re.compile(r'(?:\.|->|\b)warn\(\s*' + CODE)),
    ("make_diagnostic", re.compile(r'\bmake_diagnostic\(\s*[^,()]+,\s*' + CODE)),
    ("throw_sim_error", re.compile(r'\bthrow_sim_error\(\s*[^,()]+,\s*[^,()]+(?:\([^()]*\))?,\s*' + CODE)),
    (".code =", re.compile(r'\.code\s*=\s*' + CODE)),
]
# Codes that are also the name of an API, argument or attribute (nki.isa.device_print, the
# shuffle_mask argument, nl.tile_size.psum_fmax): only their emission sites name the catalogue.
ALSO_API_NAMES = {"device_print", "shuffle_mask", "psum_fmax", "bn_stats_fmax"}
PY_RAISE = re.compile(r'\braise\(\s*"(?P<lit>\w+)"')


def rel(path):
    return os.path.relpath(path, ROOT)


def strip_comments(text):
    """The text with comments blanked (same length, newlines kept); string literals untouched."""
    out = list(text)
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith("//", i):
            j = text.find("\n", i)
            j = n if j < 0 else j
            for k in range(i, j):
                out[k] = " "
            i = j
        elif text.startswith("/*", i):
            j = text.find("*/", i + 2)
            j = n if j < 0 else j + 2
            for k in range(i, j):
                if out[k] != "\n":
                    out[k] = " "
            i = j
        elif text.startswith('R"', i) and (i == 0 or not (text[i - 1].isalnum() or text[i - 1] == "_")):
            m = re.match(r'R"([^(]*)\(', text[i:])
            end = text.find(")" + (m.group(1) if m else "") + '"', i)
            i = n if end < 0 else end + 2 + len(m.group(1) if m else "")
        elif c == '"' or c == "'":
            j = i + 1
            while j < n and text[j] != c:
                j += 2 if text[j] == "\\" else 1
            i = j + 1
        else:
            i += 1
    return "".join(out)


def literals(code_text):
    """(offset, content) of every simple string literal in comment-free text."""
    for m in re.finditer(r'"((?:[^"\\\n]|\\.)*)"', code_text):
        # Skip the inside of char literals like '"' by requiring the quote not to be preceded by '.
        if m.start() > 0 and code_text[m.start() - 1] == "'":
            continue
        yield m.start(), m.group(1)


def line_of(text, offset):
    return text.count("\n", 0, offset) + 1


def source_files():
    for d, _, files in os.walk(SRC):
        for f in sorted(files):
            if f.endswith((".cpp", ".h")):
                p = os.path.join(d, f)
                if not rel(p).startswith(NOT_DIAGNOSTICS):
                    yield p


# ---------------------------------------------------------------------------------------- catalogue

DEF_ROW = re.compile(r'^DIAG\(\s*(\w+)\s*,\s*(\w+)\s*,\s*(\w+)\s*,((?:\s*"(?:[^"\\]|\\.)*")+)\s*,'
                     r'((?:\s*"(?:[^"\\]|\\.)*")+)\s*,\s*"((?:[^"\\]|\\.)*)"\s*,\s*"((?:[^"\\]|\\.)*)"\s*\)', re.M)


def c_unescape(s):
    return re.sub(r'\\(.)', lambda m: {"n": "\n", "t": "\t"}.get(m.group(1), m.group(1)), s)


def join_literals(s):
    return "".join(c_unescape(x) for x in re.findall(r'"((?:[^"\\]|\\.)*)"', s))


def load_catalogue():
    """code -> dict(kind, severity, message, hint, since, source) from diag_codes.def."""
    rows = {}
    if not os.path.exists(DEF):
        return rows
    text = strip_comments(open(DEF).read())
    for m in DEF_ROW.finditer(text):
        rows[m.group(1)] = dict(kind=m.group(2), severity=m.group(3), message=join_literals(m.group(4)),
                                hint=join_literals(m.group(5)), since=c_unescape(m.group(6)),
                                source=c_unescape(m.group(7)), line=line_of(text, m.start()))
    return rows


# ------------------------------------------------------------------------------------------- survey

def python_rows(cat):
    return {c for c, r in cat.items() if r["kind"] == "python"}


def scan():
    """sites: list of (file, line, code, form, is_literal); python: list of (file, line, type)."""
    sites, python, files = [], [], {}
    for p in source_files():
        text = strip_comments(open(p, encoding="utf-8").read())
        files[p] = text
        if os.path.abspath(p) == DEF:
            continue
        for form, rx in EMITTERS:
            for m in rx.finditer(text):
                lit, name = m.group("lit"), m.group("name")
                off = m.start("lit") if lit else m.start("name")
                sites.append((rel(p), line_of(text, off), lit or name, form, bool(lit)))
        for m in PY_RAISE.finditer(text):
            python.append((rel(p), line_of(text, m.start()), m.group("lit")))
    return sites, python, files


def stray_literals(files, codes, sites):
    """Literals equal to a catalogue (or emitted) code outside the catalogue and not already a
    recognised emission site: ternaries, defaults, tables, comparisons."""
    at_site = {(f, l, c) for f, l, c, _, lit in sites if lit}
    out = []
    for p, text in files.items():
        if os.path.abspath(p) == DEF:
            continue
        for off, s in literals(text):
            if s in codes and s not in ALSO_API_NAMES and (rel(p), line_of(text, off), s) not in at_site:
                out.append((rel(p), line_of(text, off), s))
    return out


DOC_ROW = re.compile(r'^\|\s*`([^`|]+)`(?:,\s*`[^`|]+`)*\s*\|(.*)\|\s*$')


def split_cells(rest):
    # Table cells are split on '|' not escaped as '\|' (GitHub tables: also inside backticks);
    # <br> separates a catalogue text's alternatives.
    cells, cur, i = [], "", 0
    while i < len(rest):
        c = rest[i]
        if c == "\\" and i + 1 < len(rest) and rest[i + 1] == "|":
            cur += "|"
            i += 2
            continue
        if c == "|":
            cells.append(cur.strip())
            cur = ""
        else:
            cur += c
        i += 1
    cells.append(cur.strip())
    return [c.replace("<br>", "\n") for c in cells]


BEGIN, END = "<!-- diag-catalogue:begin -->", "<!-- diag-catalogue:end -->"


def md(s):
    """A catalogue text as a table cell: alternatives (one per line) separated by <br>."""
    return s.replace("|", "\\|").replace("\n", "<br>")


def generated_section(cat, hand):
    """The docs/error-codes.md section listing the catalogue rows no hand-written table has."""
    lines = [BEGIN, "<!-- generated by `tools/diag_codes.py doc` from src/base/diag_codes.def; do not edit -->", "",
             "| Code | Kind | Severity | Message | Hint |", "|---|---|---|---|---|"]
    py = []
    for c, r in sorted(cat.items(), key=lambda kv: (kv[1]["kind"], kv[0])):
        if r["kind"] == "python":
            py.append(c)
        elif c not in hand:
            lines.append("| `%s` | %s | %s | %s | %s |" % (c, r["kind"], r["severity"].lower(), md(r["message"]), md(r["hint"])))
    lines += ["", "Python exceptions raised by the evaluator are reported with their type as the code "
              "(message `TYPE: ...`, no hint): " + ", ".join("`%s`" % c for c in py) + ". An exception class "
              "that the kernel defines and raises itself is reported the same way.", END]
    return "\n".join(lines) + "\n"


def hand_doc():
    return hand_doc_of(open(DOC, encoding="utf-8").read())


def hand_doc_of(text):
    a, b = text.find(BEGIN), text.find(END)
    if a >= 0 and b > a:
        text = text[:a] + text[b + len(END) + 1:]
    return text


def sync_hand_rows(text, cat):
    """Rewrites the Message and Hint cells of the hand-written rows from the catalogue."""
    out, header = [], None
    for line in text.split("\n"):
        if line.startswith("| Code |"):
            header = [h.strip() for h in line.strip().strip("|").split("|")]
        elif line.startswith("| `") and header and "Message" in header and "Hint" in header:
            codes = re.findall(r'`([^`]+)`', line.split("|")[1])
            if len(codes) == 1 and codes[0] in cat:
                cells = split_cells(line.strip()[1:-1])
                if len(cells) == len(header):
                    row = cat[codes[0]]
                    cells[header.index("Message")] = row["message"]
                    cells[header.index("Hint")] = row["hint"]
                    line = "| " + " | ".join(c if i == 0 else md(c) for i, c in enumerate(cells)) + " |"
        elif not line.startswith("|"):
            header = None
        out.append(line)
    return "\n".join(out)


def write_doc():
    cat = load_catalogue()
    text = sync_hand_rows(open(DOC, encoding="utf-8").read(), cat)
    hand = load_doc(hand_doc_of(text))
    sec = generated_section(cat, hand)
    a, b = text.find(BEGIN), text.find(END)
    if a >= 0 and b > a:
        text = text[:a] + sec + text[b + len(END) + 1:]
    else:
        text = text.rstrip("\n") + "\n\n## Other codes (from the catalogue)\n\n" + sec
    open(DOC, "w", encoding="utf-8").write(text)


def load_doc(text=None):
    """code -> dict of the documented columns (tables whose header has Code ... Message ... Hint).
    A row naming several codes (`a`, `b`) documents each of them."""
    doc, header, section = {}, None, ""
    text = open(DOC, encoding="utf-8").read() if text is None else text
    for n, line in enumerate(text.split("\n"), 1):
        line = line.rstrip("\n")
        if line.startswith("## "):
            section, header = line[3:], None
        if line.startswith("| Code |"):
            header = [h.strip() for h in line.strip().strip("|").split("|")]
            continue
        if not line.startswith("| `") or header is None:
            continue
        codes = re.findall(r'`([^`]+)`', line.split("|")[1])
        cells = split_cells(line.strip()[1:-1])
        row = dict(zip(header, cells))
        row["line"] = n
        row["section"] = section
        for c in codes:
            doc.setdefault(c, row)
    return doc


def doc_field(row, name):
    for k, v in row.items():
        if k.startswith(name):
            return v
    return None


def survey():
    sites, python, files = scan()
    cat, doc = load_catalogue(), load_doc()
    by_code = {}
    for f, l, c, form, lit in sites:
        by_code.setdefault(c, []).append((f, l, form, lit))
    print("# Diagnostic codes emitted by src/ (%d sites, %d codes)" % (len(sites), len(by_code)))
    for c in sorted(by_code):
        ss = by_code[c]
        tags = []
        if c not in doc:
            tags.append("UNDOCUMENTED")
        if cat and c not in cat:
            tags.append("NOT-IN-CATALOGUE")
        print("%-66s %3d  %s" % (c, len(ss), " ".join(tags)))
    stray = stray_literals(files, (set(by_code) | set(cat) | set(doc)) - python_rows(cat), sites)
    print("\n# Other literals equal to a code (ternaries, defaults, comparisons): %d" % len(stray))
    for f, l, c in stray:
        print("  %s:%d: %s" % (f, l, c))
    named = {}
    for p, text in files.items():
        if os.path.abspath(p) != DEF:
            for m in re.finditer(r'diag::name\(diag::Code::(\w+)\)', text):
                named.setdefault(m.group(1), []).append("%s:%d" % (rel(p), line_of(text, m.start())))
    print("\n# Catalogue names used outside the emission forms (diag::name(diag::Code::X)): %d" %
          sum(len(v) for v in named.values()))
    for c in sorted(named):
        print("  %-40s %s" % (c, " ".join(named[c])))
    print("\n# Documented in docs/error-codes.md but never emitted by a recognised site")
    stray_codes = {c for _, _, c in stray} | set(named)
    for c in sorted(doc):
        if c not in by_code:
            print("  %-60s %s" % (c, "(appears as another literal)" if c in stray_codes else ""))
    pt = {}
    for f, l, t in python:
        pt[t] = pt.get(t, 0) + 1
    print("\n# Python exception types raised (raise(TYPE, ...)): " +
          ", ".join("%s %d" % kv for kv in sorted(pt.items())))


# -------------------------------------------------------------------------------------------- check

def check():
    sites, python, files = scan()
    cat, doc = load_catalogue(), load_doc()
    problems = []
    if not cat:
        problems.append("%s: no catalogue rows" % rel(DEF))
    for f, l, c, form, lit in sites:
        if c not in cat:
            problems.append("%s:%d: code '%s' (%s) has no row in src/base/diag_codes.def: add "
                            "DIAG(%s, KIND, SEVERITY, \"message\", \"hint\", \"since\", \"source\")"
                            % (f, l, c, form, c))
        elif lit:
            problems.append("%s:%d: code literal \"%s\" in %s(...): write diag::Code::%s "
                            "(tools/diag_codes.py convert %s)" % (f, l, c, form, c, f))
    for f, l, c in stray_literals(files, set(cat) - python_rows(cat), sites):
        problems.append("%s:%d: literal \"%s\" names a catalogue code: write diag::name(diag::Code::%s)"
                        % (f, l, c, c))
    for f, l, t in python:
        if t not in cat or cat[t]["kind"] != "python":
            problems.append("%s:%d: Python exception type '%s' has no `python` row in the catalogue" % (f, l, t))
    # docs/error-codes.md against the catalogue: the generated section is current, and every
    # hand-written row agrees with its catalogue row.
    full = open(DOC, encoding="utf-8").read()
    a, b = full.find(BEGIN), full.find(END)
    if a < 0 or b < a or full[a:b + len(END) + 1] != generated_section(cat, load_doc(hand_doc())):
        problems.append("docs/error-codes.md: the generated catalogue section is missing or stale: "
                        "run tools/diag_codes.py doc")
    for c, row in sorted(cat.items()):
        if row["kind"] == "python":
            continue
        d = doc.get(c)
        if d is None:
            problems.append("docs/error-codes.md: code '%s' (catalogue line %d) is not documented" % (c, row["line"]))
            continue
        for col, key in (("Message", "message"), ("Hint", "hint"), ("Since", "since"), ("Doc source", "source")):
            v = doc_field(d, col)
            if v is None:
                continue
            want = row[key]
            if v != want:
                problems.append("docs/error-codes.md:%d: %s of '%s' is\n    %r\n  the catalogue says\n    %r"
                                % (d["line"], col, c, v, want))
        sev = doc_field(d, "Severity")
        if sev is not None:
            if sev != row["severity"].lower():
                problems.append("docs/error-codes.md:%d: '%s' is a %s in the catalogue, the doc says %s"
                                % (d["line"], c, row["severity"], sev))
            continue
        trig = doc_field(d, "Trigger") or ""
        warned = "(warning)" in trig or (doc_field(d, "Message") or "").startswith("(")
        if (row["severity"] == "Warning") != warned:
            problems.append("docs/error-codes.md:%d: '%s' is a %s in the catalogue; the doc %s say (warning)"
                            % (d["line"], c, row["severity"], "does" if warned else "does not"))
    for c, d in sorted(doc.items()):
        if c not in cat and not d["section"].startswith("Codes not valid"):
            problems.append("docs/error-codes.md:%d: documented code '%s' has no catalogue row" % (d["line"], c))
    for p in problems:
        print(p)
    print("%d problem(s)" % len(problems))
    return 1 if problems else 0


# ------------------------------------------------------------------------------------------ convert

INCLUDE = '#include "base/diag_codes.h"\n'


def add_include(text, is_cpp):
    """Inserts the catalogue include in sorted order among the quoted includes (after a .cpp
    file's own header, which comes first)."""
    incs = list(re.finditer(r'^#include "([^"]+)"\n', text, re.M))
    if is_cpp and len(incs) > 1 and text[incs[0].end():incs[0].end() + 1] == "\n":
        incs = incs[1:]
    for m in incs:
        if m.group(1) > "base/diag_codes.h":
            return text[:m.start()] + INCLUDE + text[m.start():]
    if incs:
        return text[:incs[-1].end()] + INCLUDE + text[incs[-1].end():]
    last = list(re.finditer(r'^#include <[^>]+>\n', text, re.M))
    at = last[-1].end() if last else 0
    return text[:at] + INCLUDE + text[at:]


def convert(paths):
    cat = load_catalogue()
    changed = 0
    for p in paths or list(source_files()):
        p = os.path.abspath(p)
        if p == DEF:
            continue
        orig = open(p, encoding="utf-8").read()
        code_text = strip_comments(orig)
        edits = []
        for form, rx in EMITTERS:
            for m in rx.finditer(code_text):
                lit = m.group("lit")
                if lit and lit in cat and cat[lit]["kind"] != "python":
                    edits.append((m.start("lit") - 1, m.end("lit") + 1, "diag::Code::" + lit))
        taken = {(a, b) for a, b, _ in edits}
        rel_p = rel(p)
        for off, s in literals(code_text):
            end = off + len(s) + 2
            if s in cat and cat[s]["kind"] != "python" and s not in ALSO_API_NAMES and (off, end) not in taken:
                edits.append((off, end, "diag::name(diag::Code::%s)" % s))
        if not edits:
            continue
        text = orig
        for a, b, new in sorted(set(edits), reverse=True):
            text = text[:a] + new + text[b:]
        if '#include "base/diag_codes.h"' not in text:
            text = add_include(text, p.endswith(".cpp"))
        open(p, "w", encoding="utf-8").write(text)
        changed += 1
        print("%s: %d site(s)" % (rel_p, len(set(edits))))
    print("%d file(s) converted" % changed)


def selftest():
    """The check can fail: in a copy of src/ and docs/, a code literal, an uncatalogued code and a
    stale doc cell must each be reported."""
    import shutil
    import subprocess
    import tempfile
    with tempfile.TemporaryDirectory() as tmp:
        for d in ("src", "docs", "tools"):
            shutil.copytree(os.path.join(ROOT, d), os.path.join(tmp, d))
        def edit(path, old, new):
            p = os.path.join(tmp, path)
            text = open(p, encoding="utf-8").read()
            assert old in text, (path, old)
            open(p, "w", encoding="utf-8").write(text.replace(old, new, 1))
        edit("src/nki/api_nl.cpp", "diag::Code::psum_fmax", '"psum_fmax"')
        edit("src/nki_current/isa_patterns.cpp", "current_error(diag::Code::invalid_arguments", 'current_error("selftest_new_code"')
        edit("docs/error-codes.md", "| `matmul_stationary_fmax` | 2.20 |", "| `matmul_stationary_fmax` | 2.19 |")
        r = subprocess.run([sys.executable, os.path.join(tmp, "tools", "diag_codes.py"), "check"],
                           capture_output=True, text=True)
        want = ['code literal "psum_fmax"', "code 'selftest_new_code' (current_error) has no row",
                "Since of 'matmul_stationary_fmax'"]
        missing = [w for w in want if w not in r.stdout]
        if r.returncode != 1 or missing:
            print(r.stdout)
            print("selftest: exit %d, not reported: %s" % (r.returncode, missing))
            return 1
        print("selftest: the check reports all %d planted problems" % len(want))
        return 0


if __name__ == "__main__":
    cmd = sys.argv[1] if len(sys.argv) > 1 else "survey"
    if cmd == "survey":
        survey()
    elif cmd == "check":
        sys.exit(check())
    elif cmd == "selftest":
        sys.exit(selftest())
    elif cmd == "doc":
        write_doc()
    elif cmd == "convert":
        convert(sys.argv[2:])
    else:
        sys.exit(__doc__)
