#!/usr/bin/env python3
"""Runs every `emx ...` command line shown in README.md, docs/*.md and `emx --help`.

Usage (from the repository root, after `cargo build --release`):

    python3 tests/scripts/doc_commands.py --emx target/release/emx
    python3 tests/scripts/doc_commands.py --emx target/release/emx --only usage.md -v
    python3 tests/scripts/doc_commands.py --list          # extracted commands, nothing run

A command is a line starting with `emx ` in a ``` block (a leading `$ ` is
dropped, `\\` continuations are joined) or an inline code span starting with
`emx `. Each distinct command runs once, in document order (README first),
through bash in one scratch directory that holds symlinks to the repository's
files and directories, with `emx` on PATH pointing at --emx. So outputs
(`-o FILE`, `> FILE`, `--trace FILE`, `--plot FILE`) land in the scratch
directory, and a later command can read what an earlier one wrote; an output
path with a directory (`-o dir/f`) is rewritten to its basename there.

Not run:
  - templates: a placeholder (FILE, N, PATH, ...), alternatives (`cnf|clique`),
    `[optional]` parts or `...`;
  - mentions: inline `emx SUBCOMMAND` with no argument, or with flags but no
    input where one is needed (listed in MENTIONS);
  - the commands in SKIP (reason given).

Expected outcome: exit 0, unless EXPECT names another code or the command's
trailing comment says `exit N`. A panic (`panicked at`, exit 101) always fails.
When the trailing comment starts with a number (`# 240 solutions`), that
number must appear in the output (a quoted figure). LIMIT appends limit flags
to known long runs. Exits 1 if anything failed unexpectedly.
"""

import argparse
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import tempfile
import time

# command (exact, as extracted) -> reason it is not run
SKIP = {
    "emx solve ../shared/cases/large_24x24x24_def.txt --count -q --time-limit 5":
        "reads a case outside the repository (reliability.md)",
    "emx solve ../shared/cases/large_24x24x24_def.txt --memory-limit 2G":
        "reads a case outside the repository (reliability.md)",
    "emx completions bash > ~/.local/share/bash-completion/completions/emx":
        "installs into the user's home directory (tests/integration/help.rs checks the completions)",
    "emx solve target/pgo/compare/em9_k11_s1.txt --backend cp -q":
        "reads a puzzle that benches/pgo-compare.sh generates into target/ (build.md)",
}

# substring of a command -> flags appended (a long enumeration stopped early; exit 3 then expected)
LIMIT = {
    # set-2 7x7 in full: minutes (engines.md)
    "emx solve instances/edgematch/brendan_set2/pieces_07x07.txt --backend scan --threads 2 --unique": "--time-limit 3",
}

# long runs shortened: (pattern, replacement) applied to every command before it runs
SHORTEN = [
    (r"(emx optimize .*--time )\d+", r"\g<1>2"),  # local search for minutes: 2 s shows it works
]

# exact command -> expected exit code (documented error examples, limits shown on purpose)
EXPECT = {
    # instruction-count runs stopped by a node limit on purpose (build.md)
    "emx solve instances/polycube/tetriscube_def.txt --unique -q --node-limit 1000000": 3,
    "emx solve instances/edgematch/brendan_set2/pieces_06x06.txt --backend scan -q --node-limit 2000000": 3,
    # the size-cap examples (reliability.md) show the refusal
    "emx encode instances/polycube/heptominoes_33x23_def.txt --to clique -o h.clq --max-size 200M": 2,
    "emx encode instances/polycube/heptominoes_33x23_def.txt --to cnf -o h.cnf --max-size 200M": 2,
    # the Slurm recipe (usage.md): the sweep submits no array job, so the tasks have no results
    "emx merge p7/manifest.json": 2,
}

# exact command -> shell run just before it: the non-emx lines of its block (external solvers, batch runs,
# an answer file the docs show as text)
PRELUDE = {
    "emx decode instances/edgematch/brendan_set2/pieces_05x05.txt --model p5.model": "cadical p5.cnf > p5.model",
    "emx decode instances/edgematch/brendan_set2/pieces_04x04.txt --clique c4.txt --map g4.clq.map":
        "cliquer -q -q -m 16 -M 16 g4.clq > c4.txt",
    "emx decode tests/data/encoders/tiny_2x2.txt --model t.model": "cadical t.cnf > t.model",
    "emx decode instances/edgematch/brendan_set2/pieces_05x05.txt --maxsat-model p5.answer":
        "python3 -m pysat.examples.rc2 -vv p5.wcnf > p5.answer",
    "emx optimize instances/edgematch/eternity2/e2_centre.txt --start-board url.txt --time 60 --format bucas":
        "grep '^https' instances/edgematch/boards/e2centre.bucas.txt > url.txt",
    "emx merge parts/manifest.json": "parallel emx task ::: parts/task-*.json",
    "emx merge soma/manifest.json": "parallel emx task ::: soma/task-*.json",
    "emx merge parts6/manifest.json":
        "for f in parts6/part-*.txt; do emx solve $f --backend scan --format json --all > ${f%.txt}.json; done",
}

# inline code without a file argument is a mention (`emx bench --plot`), except these commands
RUN_INLINE = {"emx --version", "emx generate edgematch --size 8 --colors 8 --border-colors 3 --seed 1"}
MENTIONS = set()

# external programs: a command (or its prelude) naming one is skipped when it is not on PATH
EXTERNAL = ["cadical", "kissat", "minisat", "cliquer", "highs", "parallel"]

PLACEHOLDER = re.compile(r"(?<![\w=:-])[A-Z][A-Z0-9_]*(?!\w)|0Nx0N|\$[A-Z_]+")
OUTPUT_FLAGS = ("-o", "--output", "--trace", "--plot")


def doc_files(root):
    files = ["README.md"]
    files += sorted(os.path.join("docs", f) for f in os.listdir(os.path.join(root, "docs")) if f.endswith(".md"))
    return files


def split_comment(line):
    """Splits a shell line into (command, comment) at an unquoted `#` that starts a word."""
    quote = None
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = None
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip(), line[i + 1:].strip()
    return line.rstrip(), ""


def extract(root):
    """Yields (file, line, command, comment, inline, shown output lines)."""
    for rel in doc_files(root):
        with open(os.path.join(root, rel), encoding="utf-8") as f:
            lines = f.read().split("\n")
        in_fence = False
        prose = []  # (line number, text) outside fences
        i = 0
        while i < len(lines):
            line = lines[i]
            if line.lstrip().startswith("```"):
                in_fence = not in_fence
                i += 1
                continue
            if not in_fence:
                prose.append((i + 1, line))
                i += 1
                continue
            text = line.strip()
            prompt = text.startswith("$ ")
            if prompt:
                text = text[2:]
            start = i + 1
            if text.startswith("emx "):
                cmd, comment = split_comment(text)
                while cmd.endswith("\\") and i + 1 < len(lines):
                    i += 1
                    more, c2 = split_comment(lines[i].strip())
                    cmd = cmd[:-1].rstrip() + " " + more
                    comment = comment or c2
                shown = []  # after a `$ ` prompt: the output the docs show, up to the next prompt
                while prompt and i + 1 < len(lines) and not lines[i + 1].lstrip().startswith(("$ ", "```")):
                    i += 1
                    shown.append(lines[i])
                yield rel, start, cmd, comment, False, shown
            i += 1
        # inline code spans in prose (a span may cross a line break)
        joined = "\n".join(t for _, t in prose)
        offsets = []
        pos = 0
        for n, t in prose:
            offsets.append((pos, n))
            pos += len(t) + 1
        for m in re.finditer(r"(?<!`)`([^`]+)`(?!`)", joined):
            body = " ".join(m.group(1).split())
            if not body.startswith("emx "):
                continue
            body = body.replace("\\|", "|")
            n = max(ln for p, ln in offsets if p <= m.start())
            yield rel, n, body, "", True, []


def classify(cmd, inline):
    """Returns None if the command runs, else why it does not."""
    if cmd in SKIP:
        return "skip: " + SKIP[cmd]
    if cmd in MENTIONS:
        return "mention"
    words = cmd.split()
    if inline and len(words) <= 2 and cmd not in RUN_INLINE:
        return "mention"
    ph = PLACEHOLDER.findall(cmd)
    if ph:
        return "template (" + ",".join(dict.fromkeys(ph)) + ")"
    if "..." in cmd or " [" in cmd:
        return "template ([...])"
    if re.search(r"\S\|\S", cmd):
        return "template (a|b)"
    if inline and cmd not in RUN_INLINE and not re.search(r"\.[a-z]+\b|/", cmd):
        return "mention"
    for tool in EXTERNAL:
        if re.search(r"(?<![\w/-])" + tool + r"(?![\w-])", cmd + " " + PRELUDE.get(cmd, "")) and not shutil.which(tool):
            return "skip: needs " + tool
    return None


def rewrite(cmd):
    """Output paths with a directory go to the scratch directory; known long runs get limits."""
    words = shlex.split(cmd, comments=False, posix=True) if "'" not in cmd and '"' not in cmd else None
    out = cmd
    if words:
        for k, w in enumerate(words[:-1]):
            if w in OUTPUT_FLAGS and "/" in words[k + 1] and not words[k + 1].startswith("/dev/"):
                out = out.replace(w + " " + words[k + 1], w + " " + os.path.basename(words[k + 1]))
    for key, extra in LIMIT.items():
        if key in cmd:
            out = out + " " + extra
    for pat, rep in SHORTEN:
        out = re.sub(pat, rep, out)
    return out


def expected_code(cmd, comment):
    if cmd in EXPECT:
        return EXPECT[cmd]
    for key, extra in LIMIT.items():
        if key in cmd:
            return 3
    m = re.search(r"\bexit (\d+)", comment)
    return int(m.group(1)) if m else 0


def quoted_figure(comment):
    m = re.match(r"(\d[\d,]*)(?:\s|$|\))", comment)
    return m.group(1).replace(",", "") if m else None


def help_flags(emx, sub, cache):
    """The flags `emx SUB --help` lists (None when there is no such subcommand)."""
    key = " ".join(sub)
    if key not in cache:
        p = subprocess.run([emx] + sub + ["--help"], stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        cache[key] = set(re.findall(r"--[a-z][a-z0-9-]*", p.stdout.decode())) if p.returncode == 0 else None
    return cache[key]


def unknown_flags(cmd, emx, cache):
    """Flags of an emx command (template or not) that `emx SUB --help` does not list."""
    words = cmd.split()
    sub = [w for w in words[1:3] if re.fullmatch(r"[a-z]+", w)]
    if not sub or sub[0] == "help":
        return []
    if sub[0] != "generate":
        sub = sub[:1]
    known = help_flags(emx, sub, cache)
    if known is None:
        return ["(no subcommand %s)" % " ".join(sub)]
    if sub == ["bench"]:
        # `--variant LABEL=FLAGS` carries `emx solve` flags.
        known = known | (help_flags(emx, ["solve"], cache) or set())
    # only the emx command itself: stop at a pipe or a command separator
    own = re.split(r"\s(?:&&|\||;)\s", cmd)[0]
    return [f for f in dict.fromkeys(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", own)) if f not in known]


def mask(text):
    """Whitespace-normalised text with times and rates hidden (they differ run to run)."""
    text = re.sub(r"\d+(\.\d+)? ?(s|ms|M nodes/s|k nodes/s)\b", "T", text)
    return "\n".join(" ".join(ln.split()) for ln in text.splitlines())


def run(cmd, scratch, env, timeout):
    t0 = time.time()
    p = subprocess.Popen(["bash", "-c", cmd], cwd=scratch, env=env, stdout=subprocess.PIPE,
                         stderr=subprocess.PIPE, stdin=subprocess.DEVNULL, start_new_session=True)
    try:
        out, err = p.communicate(timeout=timeout)
        timed_out = False
    except subprocess.TimeoutExpired:
        os.killpg(p.pid, signal.SIGKILL)
        out, err = p.communicate()
        timed_out = True
    return p.returncode, out.decode("utf-8", "replace"), err.decode("utf-8", "replace"), timed_out, time.time() - t0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--emx", default="target/release/emx", help="the emx binary to run (default %(default)s)")
    ap.add_argument("--timeout", type=float, default=20.0, help="seconds per command (default %(default)s)")
    ap.add_argument("--only", help="run only commands whose file or text contains this")
    ap.add_argument("--list", action="store_true", help="print the extracted commands and their class, run nothing")
    ap.add_argument("--flags-only", action="store_true", help="only check every command's flags against --help")
    ap.add_argument("--keep", action="store_true", help="keep the scratch directory (its path is printed)")
    ap.add_argument("-v", "--verbose", action="store_true", help="print every command's output head")
    args = ap.parse_args()

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    seen = {}
    order = []
    for rel, line, cmd, comment, inline, shown in extract(root):
        if cmd in seen:
            seen[cmd]["where"].append("%s:%d" % (rel, line))
            continue
        seen[cmd] = {"where": ["%s:%d" % (rel, line)], "comment": comment, "inline": inline, "shown": shown}
        order.append(cmd)

    emx = os.path.abspath(args.emx)
    if os.access(emx, os.X_OK):
        # the examples of `emx --help` are documentation too
        text = subprocess.run([emx, "--help"], stdout=subprocess.PIPE).stdout.decode()
        lines = text.splitlines()
        for n, line in enumerate(lines):
            cmd = line.strip()
            if not cmd.startswith("emx "):
                continue
            k = n
            while cmd.endswith("\\") and k + 1 < len(lines):
                k += 1
                cmd = cmd[:-1].rstrip() + " " + lines[k].strip()
            cmd = " ".join(cmd.split())
            if cmd in seen:
                seen[cmd]["where"].append("emx --help")
            else:
                seen[cmd] = {"where": ["emx --help"], "comment": "", "inline": False, "shown": []}
                order.append(cmd)

    if args.list:
        for cmd in order:
            e = seen[cmd]
            why = classify(cmd, e["inline"]) or "run"
            print("%-28s %-22s %s" % (e["where"][0], why[:22], cmd))
        print("%d distinct commands" % len(order))
        return 0

    if not os.access(emx, os.X_OK):
        print("doc_commands: %s is not an executable (build with cargo build --release)" % emx, file=sys.stderr)
        return 2
    scratch = tempfile.mkdtemp(prefix="emx-doc-commands-")
    for name in os.listdir(root):
        if name not in (".git", "target"):
            os.symlink(os.path.join(root, name), os.path.join(scratch, name))
    bindir = os.path.join(scratch, ".bin")
    os.mkdir(bindir)
    os.symlink(emx, os.path.join(bindir, "emx"))
    env = dict(os.environ)
    env["PATH"] = bindir + os.pathsep + env.get("PATH", "")
    env.pop("NO_COLOR", None)

    help_cache = {}
    rows = []
    counts = {"ok": 0, "FAIL": 0, "skipped": 0}
    for cmd in order:
        e = seen[cmd]
        where = e["where"][0] + ("" if len(e["where"]) == 1 else " (+%d)" % (len(e["where"]) - 1))
        if args.only and args.only not in cmd and not any(args.only in w for w in e["where"]):
            continue
        why = classify(cmd, e["inline"])
        bad = unknown_flags(cmd, emx, help_cache)
        if bad:
            counts["FAIL"] += 1
            rows.append((where, "FAIL: unknown flag " + " ".join(bad), "", "", cmd, ""))
            print("== %s  unknown flag(s) %s\n   $ %s" % (where, " ".join(bad), cmd))
            continue
        if why or args.flags_only:
            counts["skipped"] += 1
            rows.append((where, why or "flags ok", "", "", cmd, ""))
            continue
        actual = rewrite(cmd)
        want = expected_code(cmd, e["comment"])
        if cmd in PRELUDE:
            run(PRELUDE[cmd], scratch, env, args.timeout)
        code, out, err, timed_out, secs = run(actual, scratch, env, args.timeout)
        problems = []
        missing = [ln for ln in e["shown"] if ln.strip() and mask(ln) not in mask(out + "\n" + err)]
        if missing and not timed_out:
            problems.append("%d shown output line(s) differ" % len(missing))
        if timed_out:
            problems.append("timeout %.0fs" % args.timeout)
        elif code != want:
            problems.append("exit %d, want %d" % (code, want))
        if "panicked at" in err or code == 101:
            problems.append("PANIC")
        fig = quoted_figure(e["comment"])
        if fig and not timed_out and not re.search(r"(?<![\d.])" + fig + r"(?![\d.])", (out + err).replace(",", "")):
            problems.append("figure %s not in output" % fig)
        status = "FAIL" if problems else "ok"
        counts[status] += 1
        head = (err.strip().splitlines() or [""])[0][:100]
        rows.append((where, status + ("" if not problems else ": " + "; ".join(problems)), code, "%.1f" % secs,
                     actual, head))
        if args.verbose or problems:
            print("== %s  %s\n   $ %s\n   exit %s in %.1fs" % (where, rows[-1][1], actual, code, secs))
            for ln in out.strip().splitlines()[:6]:
                print("   | " + ln[:150])
            for ln in err.strip().splitlines()[:4]:
                print("   ! " + ln[:150])
            for ln in missing:
                print("   docs show, not in output: " + ln[:150])
        sys.stdout.flush()

    print()
    print("%-30s %-40s %5s %6s  %s" % ("where", "result", "exit", "secs", "command"))
    for where, result, code, secs, cmd, head in rows:
        print("%-30s %-40s %5s %6s  %s" % (where, result[:40], code, secs, cmd[:110]))
    print()
    print("commands: %d distinct; run %d: ok %d, FAIL %d; not run %d (templates, mentions, skip list)"
          % (len(rows), counts["ok"] + counts["FAIL"], counts["ok"], counts["FAIL"], counts["skipped"]))
    if args.keep:
        print("scratch directory: %s" % scratch)
    else:
        shutil.rmtree(scratch, ignore_errors=True)
    return 1 if counts["FAIL"] else 0


if __name__ == "__main__":
    sys.exit(main())
