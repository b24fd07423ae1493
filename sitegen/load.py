"""Intake: find the inputs, read their bytes once, parse JSON / JSONL / markdown strictly.

Why not orjson here: it silently keeps the last of two duplicate keys, and a duplicated key
in a score artifact is exactly the kind of quiet change this tool exists to refuse. The
standard library's C scanner with an ``object_pairs_hook`` sees every pair.

Every reader takes the site's `Limits` (sitegen.config): a file over `max_file_bytes`, a JSON
string over `max_string_chars` or a JSONL file over `max_records` lines is a Problem, so a
runaway artifact fails the build with one clear line instead of exhausting memory or time.

Only regular files inside the repository's input folders are inputs (`input_target`): every
reader and walker of the build goes through `open_input` or `walk_inputs`, so a committed symlink
to a host file, to .git/config or an untracked .env, a FIFO or a device is one problem naming it
and is never opened; dot-files and dot-folders are not inputs; a folder that cannot be read or
lies too deep is a problem naming it (sitegen.folders).
"""

from __future__ import annotations

import errno
import hashlib
import os
import stat
from collections import deque
from concurrent.futures import ProcessPoolExecutor
import json
import re
from dataclasses import dataclass, field
from itertools import accumulate
from pathlib import Path
from typing import TYPE_CHECKING, Any, BinaryIO, Callable, Iterable, Iterator

from sitegen import folders
from sitegen.errors import InputError, Problem, capped, short_repr

if TYPE_CHECKING:  # only for annotations: pydantic is imported only when a bare int is given
    from sitegen.limits import Limits


# Everything a build reads from the site repository (build.py, the families' load, templates,
# assets): its folders, which no output may be put inside, and its configuration.
INPUT_FOLDERS = ("content", "data", "templates", "assets", "schemas")
INPUT_PARTS = INPUT_FOLDERS + ("pyproject.toml",)


@dataclass(frozen=True)
class SourceFile:
    """An input file's identity: where it is, what it hashed to when read."""

    rel: str  # relative to the site root, forward slashes
    sha256: str
    size: int


@dataclass
class JsonRecord:
    """One parsed JSON document (a .json file, or one line of a .jsonl file)."""

    source: str
    line: int | None
    value: Any
    screened: bool = False  # a key the reader was asked to screen for occurs somewhere in it


@dataclass
class MarkdownDoc:
    source: SourceFile
    meta: dict[str, str]
    body: str
    body_line: int  # 1-based line where the body starts, for error messages
    meta_lines: dict[str, int] = field(default_factory=dict)  # front matter key -> its 1-based line


@dataclass
class Loaded:
    """Everything read from disk, plus the problems met while reading it."""

    files: list[SourceFile] = field(default_factory=list)
    problems: list[Problem] = field(default_factory=list)
    # Files refused, cut short by a limit, not UTF-8, or with a line that did not parse: their
    # records are not all there, so a check across documents would take the unread ones for
    # missing ones.
    incomplete: set[str] = field(default_factory=set)
    # What each freeze record must hold, by its file (data/<family>/freeze.json): every input the
    # family freezes, as sitegen.freeze.Wanted with its fingerprint now. Filled by the family's
    # load; what `sitegen freeze record` and `bump` write from (sitegen.freeze_record).
    frozen: dict[str, list] = field(default_factory=dict)


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _open_regular(path: Path | str, flags: int = 0) -> BinaryIO:
    """A regular file opened for reading; anything else is an OSError and is not opened (a
    FIFO would block the open or the read forever, a device such as /dev/zero never ends).
    O_NONBLOCK makes a FIFO swapped in since the stat fail at once instead of waiting."""
    if not stat.S_ISREG(os.stat(path).st_mode):
        raise OSError(f"not a regular file: {path}")
    fh = os.fdopen(os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_CLOEXEC | flags), "rb")
    if not stat.S_ISREG(os.fstat(fh.fileno()).st_mode):
        fh.close()
        raise OSError(f"not a regular file: {path}")
    return fh


_HASH_BLOCK = 1 << 20


def sha256_file(path: Path, flags: int = 0) -> str:
    """A regular file's SHA-256, read in blocks (never whole in memory); OSError for anything else
    (`flags`: os.O_NOFOLLOW, for a file that must not be a symbolic link). Read straight from the
    descriptor, nothing having been read through the file object: hashlib.file_digest makes a
    256 KB buffer for each file, and a site's files are small (hashing the 25,000 files of the
    100x output: 1.21 s with it, 1.07 s without, medians of 5)."""
    with _open_regular(path, flags) as fh:
        digest = hashlib.sha256()
        while block := os.read(fh.fileno(), _HASH_BLOCK):
            digest.update(block)
        return digest.hexdigest()


def rel_path(root: Path, path: Path) -> str:
    return path.relative_to(root).as_posix()


def is_editor_dropping(name: str) -> bool:
    """An editor's lock, swap or backup file beside the one being edited (emacs's .#name is a
    dangling symlink): never an input, skipped without a word, so a build run mid-edit works."""
    return name.startswith(".#") or name.endswith(("~", ".swp", ".swo", ".swx"))


_KINDS = ((stat.S_ISDIR, "a directory"), (stat.S_ISFIFO, "a FIFO"), (stat.S_ISSOCK, "a socket"),
          (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"))


def is_hidden(name: str) -> bool:
    """A dot-file or dot-folder (.git, .env, .sitegen-cache, .DS_Store): never an input, and
    nothing under a dot-folder is one. Like an editor's dropping it is skipped without a word by
    the walks, and a path or a symlink that leads to one is refused."""
    return name.startswith(".")


def _not_an_input_path(rel: str) -> str:
    """Why a repository-relative path cannot hold an input ("" when it can): it must lie in an
    input folder or be a configuration file (INPUT_PARTS), with no dot-file, dot-folder or editor
    dropping on the way. The repository's .git/ (where a CI checkout keeps its job token), the
    cache, the output and an untracked .env all fail it."""
    parts = rel.split("/")
    if any(is_hidden(part) for part in parts):
        return "a dot-file or inside a dot-folder"
    if parts[0] not in INPUT_FOLDERS and rel not in INPUT_PARTS:
        return "outside the input folders"
    if is_editor_dropping(parts[-1]):
        return "an editor's file"
    return ""


def input_target(root: Path, path: Path) -> tuple[Path | None, str]:
    """(the regular file to read, "") when `path` is an input, else (None, what is there).

    Only regular files inside the repository are inputs. A symlink is one when its target,
    fully resolved, is a regular file under root that would be an input in its own right (see
    _not_an_input_path): a committed link to /etc/passwd or /proc/self/environ would otherwise
    publish the build host's files, one to ../.git/config or ../.env the checkout's secrets, and
    a FIFO or a device would hang the build, so what fails the rule is only ever stat'ed."""
    try:
        is_link = stat.S_ISLNK(os.lstat(path).st_mode)
    except FileNotFoundError:
        return None, "no such file"
    except OSError as exc:
        return None, f"a path that cannot be read ({exc.strerror})"
    try:
        rel = path.relative_to(root).as_posix()
    except ValueError:
        rel = None
    if rel is not None and any(is_hidden(part) for part in rel.split("/")):
        return None, "a dot-file or a file inside a dot-folder"
    real, base = os.path.realpath(path), os.path.realpath(root)
    if os.path.commonpath([real, base]) != base:
        return None, "a symlink to a path outside it" if is_link else "a path that leads outside it"
    real_rel = Path(os.path.relpath(real, base)).as_posix()
    if real_rel != rel and (why := _not_an_input_path(real_rel)):
        return None, f"{'a symlink' if is_link else 'a path that leads'} to {real_rel}, which is not an input ({why})"
    try:
        mode = os.stat(real).st_mode
    except OSError as exc:
        return None, "a dangling symlink" if isinstance(exc, FileNotFoundError) else f"a symlink that cannot be followed ({exc.strerror})"
    if not stat.S_ISREG(mode):
        kind = next((name for test, name in _KINDS if test(mode)), "not a regular file")
        return None, f"a symlink to {kind}" if is_link else kind
    return Path(real), ""


READABLE = "a readable regular file"


def not_an_input(rel: str, found: str) -> Problem:
    return Problem(rel, None, "", "a regular file inside the repository", found)


def open_input(root: Path, path: Path) -> BinaryIO:
    """The input at `path` opened for reading, or an InputError naming it (see input_target)."""
    rel = rel_path(root, path)
    target, found = input_target(root, path)
    if target is None:
        raise InputError([not_an_input(rel, found)])
    try:  # O_NOFOLLOW: the resolved path is no symlink, unless one was put there since
        return _open_regular(target, os.O_NOFOLLOW)
    except OSError as exc:
        raise InputError([Problem(rel, None, "", READABLE, exc.strerror or str(exc))]) from None


def input_bytes(root: Path, path: Path) -> bytes:
    """The whole of an input a reader has already accepted (a raw record to publish, an asset),
    under the same rule."""
    with open_input(root, path) as fh:
        return fh.read()


def walk_inputs(root: Path, parts: Iterable[str]) -> tuple[dict[str, Path], dict[str, Problem]]:
    """Every file under each part (a folder or a file) of root, by POSIX relative path, sorted:
    the inputs (rel -> the regular file to read) and a problem for every other entry (see
    input_target), for every folder that cannot be listed and every folder nested too deep
    (sitegen.folders). Dot-files, dot-folders and editor droppings are skipped; symlinked
    folders are not followed (a symlink to a file is checked like any file). A missing part
    contributes nothing."""
    found: dict[str, tuple[Path | None, str]] = {}
    faults: list[folders.Fault] = []
    real_root = os.path.realpath(root)
    for part in parts:
        base = root / part
        if not base.is_dir():
            if os.path.lexists(base) and not is_editor_dropping(base.name):
                found[rel_path(root, base)] = input_target(root, base)
            continue
        # A folder that is where it seems (no symlink on the way): a file below it that is no
        # symlink itself is an input at the folder's real path plus its own, with no realpath of
        # its own. Anything else goes through input_target (every file resolved, as each would be).
        rel_top = rel_path(root, base)
        real_top = os.path.realpath(base)
        plain = real_top == os.path.join(real_root, *rel_top.split("/"))
        for _path, rel, entries in folders.walk(str(base), rel_top, faults, is_skipped):
            for e in entries:
                if _is_folder(e):  # walked in its turn, or (a symlinked folder) not followed
                    continue
                name = f"{rel}/{e.name}"
                try:  # the listing's own file type: no system call
                    regular = plain and e.is_file(follow_symlinks=False)
                except OSError:
                    regular = False
                found[name] = (Path(real_top + name[len(rel_top):]), "") if regular else input_target(root, Path(e.path))
    # A file its reader could not open is named here, whether or not anything reads it: an
    # unreadable asset would otherwise pass validate and fail only the build's writing.
    unreadable = {rel for rel, (target, _) in found.items() if target is not None and not os.access(target, os.R_OK)}
    inputs = {rel: target for rel, (target, _) in sorted(found.items()) if target is not None and rel not in unreadable}
    others = {rel: not_an_input(rel, what) for rel, (target, what) in found.items() if target is None}
    others.update((rel, Problem(rel, None, "", READABLE, os.strerror(errno.EACCES))) for rel in unreadable)
    others.update((f.rel, Problem(f.rel, None, "", f.expected, f.found)) for f in faults)
    return inputs, dict(sorted(others.items()))


def _is_folder(entry: os.DirEntry) -> bool:
    try:
        return entry.is_dir()
    except OSError:
        return False


def is_skipped(name: str) -> bool:
    """Whether the walks of the inputs pass over a file or folder of this name without a word."""
    return is_hidden(name) or is_editor_dropping(name)


def input_problems(root: Path, parts: Iterable[str]) -> list[Problem]:
    """A problem for every entry under `parts` that is not an input (see walk_inputs)."""
    return list(walk_inputs(root, parts)[1].values())


def discover(root: Path, sub: str, suffixes: tuple[str, ...]) -> list[Path]:
    """The inputs under root/sub with the given suffixes, sorted by their POSIX relative path
    (independent of locale and of the order the file system lists them). What is not an
    input is left out here and reported by input_problems."""
    inputs, _others = walk_inputs(root, [sub])
    return [root / rel for rel in inputs if Path(rel).suffix in suffixes]


class _DupDict(dict):
    """A dict that remembers which keys appeared more than once in its JSON object."""

    dups: tuple[str, ...] = ()


class _Refused:
    """What the decoder puts where the text holds a value the build cannot take: NaN, Infinity
    or -Infinity (which Python's json accepts but JSON does not), an integer beyond 64 bits
    (which DuckDB, Arrow and the published JSON cannot hold), or an object of more than
    MAX_KEYS keys (no contract has a hundredth as many; validating one would make a problem per
    key, a million of them in memory for one runaway line). Parsing goes on, and the tree walk
    then reports each by its path."""

    __slots__ = ("literal", "expected")

    def __init__(self, literal: str, expected: str):
        self.literal, self.expected = literal, expected


_INT64 = (-(2**63), 2**63 - 1)
# A run of 19 digits: an integer this long may be out of _INT64. Found in the text's UTF-8 bytes
# with every digit made "0" and every other byte a space (two C passes, a seventh of the time a
# regular expression takes: it tries a match at every position).
_DIGITS_AS_ZEROS = bytes(48 if 48 <= b <= 57 else 32 for b in range(256))
_LONG_RUN = b"0" * 19
MAX_KEYS = 10_000  # keys of one JSON object


def _has_long_digit_run(text: str) -> bool:
    return _LONG_RUN in text.encode("utf-8", "surrogatepass").translate(_DIGITS_AS_ZEROS)


def _nodes(value: Any, loc: tuple = ()) -> Iterator[tuple[tuple, Any]]:
    """(location, node) of every node of a parsed JSON tree, the root first. The walks that
    locate what the decoder noticed (duplicate keys, NaN, long strings) all go through here;
    each runs only when there is something to locate."""
    yield loc, value
    if isinstance(value, dict):
        for k, v in value.items():
            yield from _nodes(v, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _nodes(v, loc + (i,))


class _Decoder:
    """One file's JSON decoder. Its object hook sees every key of every object, so it notes
    duplicate keys and keys a family screens for (`screen(key) -> True`) while parsing: the
    tree is walked to locate them only when one was seen, which keeps large files fast."""

    def __init__(self, screen: Callable[[str], bool] | None, max_string_chars: int | None = None):
        self.screen = screen
        self.max_string_chars = max_string_chars
        self.known: set[str] = set()
        self.flagged: set[str] = set()
        self.dups = self.hits = self.refused = 0
        self._json = json.JSONDecoder(object_pairs_hook=self._hook, parse_constant=self._constant, parse_int=self._int)
        # Without the integer hook (a call per integer): for a text with no run of 19 digits,
        # where every integer is within 64 bits (a run inside a string only costs the hook).
        self._json_short_ints = json.JSONDecoder(object_pairs_hook=self._hook, parse_constant=self._constant)

    def _constant(self, literal: str) -> _Refused:
        self.refused += 1
        return _Refused(literal, "a finite JSON number")

    def _int(self, literal: str) -> int | _Refused:
        if len(literal) < 19:  # 18 digits and a sign at most: within 64 bits
            return int(literal)
        # More than 20 characters is out of range, and is never converted (Python refuses
        # to convert an integer of over 4,300 digits at all).
        if len(literal) <= 20 and _INT64[0] <= (value := int(literal)) <= _INT64[1]:
            return value
        self.refused += 1
        return _Refused(literal if len(literal) <= 40 else f"an integer of {len(literal.lstrip('-')):,} digits",
                        "an integer between -2^63 and 2^63-1")

    def _hook(self, pairs: list[tuple[str, Any]]) -> dict | _Refused:
        if len(pairs) > MAX_KEYS:
            self.refused += 1
            return _Refused(f"an object of {len(pairs):,} keys", f"an object of at most {MAX_KEYS:,} keys")
        d = dict(pairs)
        if len(d) != len(pairs):
            self.dups += 1
            d = _DupDict(d)
            seen: set[str] = set()
            d.dups = tuple(k for k, _ in pairs if k in seen or seen.add(k))
        if self.screen is not None:
            if not self.known.issuperset(d):
                for k in d:
                    if k not in self.known:
                        self.known.add(k)
                        if self.screen(k):
                            self.flagged.add(k)
            if self.flagged and not self.flagged.isdisjoint(d):
                self.hits += 1
        return d

    def decode(self, text: str) -> tuple[Any, bool, bool]:
        """(value, had duplicate keys, had a screened key). A value the build cannot take
        (see _Refused) raises RefusedNumbers naming the JSON path of each."""
        self.dups = self.hits = self.refused = 0
        value = (self._json if _has_long_digit_run(text) else self._json_short_ints).decode(text)
        if self.refused:
            raise RefusedNumbers([(json_path(loc), v) for loc, v in _nodes(value) if isinstance(v, _Refused)])
        return value, self.dups > 0, self.hits > 0


class RefusedNumbers(ValueError):
    def __init__(self, found: list[tuple[str, _Refused]]):
        super().__init__(f"{len(found)} number(s) the build cannot take")
        self.found = found


def json_path(loc: tuple | list) -> str:
    """('judgments', 0, 'anchors', 'voice') -> '$.judgments[0].anchors.voice'."""
    out = "$"
    for part in loc:
        if isinstance(part, int):
            out += f"[{part}]"
        elif re.fullmatch(r"[A-Za-z_][A-Za-z0-9_-]*", str(part)):
            out += f".{part}"
        else:
            out += "[" + json.dumps(str(part), ensure_ascii=False) + "]"
    return out


def _find_dups(value: Any) -> Iterator[tuple[tuple, str]]:
    for loc, node in _nodes(value):
        if isinstance(node, _DupDict):
            for k in node.dups:
                yield loc + (k,), k


def _long_strings(value: Any, limit: int, loc: tuple = ()) -> Iterator[tuple[tuple, str, int]]:
    """(location, "string" or "key", length) of every string or key longer than limit. A long
    key is located at its object: the key itself would not fit in a message (nor is the value
    under it walked: its path would hold that key)."""
    if isinstance(value, str):
        if len(value) > limit:
            yield loc, "string", len(value)
    elif isinstance(value, dict):
        for k, v in value.items():
            if len(k) > limit:
                yield loc, "key", len(k)
            else:
                yield from _long_strings(v, limit, loc + (k,))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            yield from _long_strings(v, limit, loc + (i,))


def _string_problems(value: Any, text: str, rel: str, line: int | None, limit: int | None) -> list[Problem]:
    # A JSON text is at least as long as any string in it (escapes only lengthen it), so a text
    # within the limit needs no walk: the check costs one len() per document or line.
    if limit is None or len(text) <= limit:
        return []
    return capped(_long_strings(value, limit),
                  lambda f: Problem(rel, line, json_path(f[0]), f"a {f[1]} of at most {limit:,} characters", f"{f[2]:,} characters"))


MAX_DEPTH = 200  # levels of nesting: far deeper than any artifact, far short of Python's recursion limit
_DEPTH_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[\[\]{}]')


_ESCAPE = re.compile(r"\\.", re.S)
_NOT_STRUCTURE = bytes(b for b in range(256) if b not in b'[]{}"')  # every byte but brackets and quotation marks
_DEPTH_STEP = {ord("["): 1, ord("{"): 1, ord("]"): -1, ord("}"): -1}


def _max_depth(text: str) -> int:
    """The deepest nesting of the text's brackets outside strings, in passes that run in C:
    escapes dropped (so a quotation mark left is one that opens or closes a string), every byte
    but a bracket or a quotation mark dropped, then the strings (every other piece between
    quotation marks). Up to the first character the decoder refuses it is exact, and the
    decoder never reads past that one."""
    if "\\" in text:
        text = _ESCAPE.sub("", text)
    structure = text.encode("utf-8", "surrogatepass").translate(None, _NOT_STRUCTURE)
    brackets = b"".join(structure.split(b'"')[0::2])
    return max(accumulate(map(_DEPTH_STEP.__getitem__, brackets)), default=0)


def _too_deep(text: str) -> int | None:
    """The offset where the text's nesting first goes beyond MAX_DEPTH, if it does. The decoder
    and the tree walks here recurse once per level, and Python's recursion limit would end
    them in a RecursionError naming no file; a deeper document is refused before it is parsed.
    A text with fewer opening brackets than that cannot be as deep: two count()s settle it."""
    if text.count("[") + text.count("{") <= MAX_DEPTH or _max_depth(text) <= MAX_DEPTH:
        return None
    depth = 0
    for m in _DEPTH_TOKEN.finditer(text):
        c = text[m.start()]
        if c in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return m.start()
        elif c in "]}":
            depth -= 1
    return None


def parse_json_text(text: str, rel: str, line: int | None, decoder: _Decoder | None = None) -> tuple[Any, list[Problem], bool]:
    """Parse one JSON document. Returns (value or None, problems, whether a screened key occurs)."""
    decoder = decoder or _Decoder(None)
    deep = _too_deep(text)
    if deep is not None:
        at_line = line if line is not None else text.count("\n", 0, deep) + 1
        column = deep - text.rfind("\n", 0, deep)
        return None, [Problem(rel, at_line, "", f"JSON nested at most {MAX_DEPTH} levels deep", f"level {MAX_DEPTH + 1} at column {column}")], False
    try:
        value, had_dups, screened = decoder.decode(text)
    except RefusedNumbers as exc:
        return None, capped(exc.found, lambda f: Problem(rel, line, f[0], f[1].expected, f[1].literal)), False
    except ValueError as exc:  # json.JSONDecodeError
        if not isinstance(exc, json.JSONDecodeError):
            return None, [Problem(rel, line, "", "valid JSON", str(exc))], False
        # The decoder's own position: its line within a whole-file document (a JSONL line
        # already carries its line number), and the column. Some of its messages end in "at".
        detail = exc.msg.removesuffix(" at")
        return None, [Problem(rel, line if line is not None else exc.lineno, "", "valid JSON", f"{detail} at column {exc.colno}")], False
    problems = capped(_find_dups(value) if had_dups else (),
                      lambda f: Problem(rel, line, json_path(f[0]), "each key once per object", f"key {short_repr(f[1])} repeated"))
    problems += _string_problems(value, text, rel, line, decoder.max_string_chars)
    return value, problems, screened


def as_limits(limits: "Limits | int") -> "Limits":
    """The readers' limits. A bare int is a byte limit alone, the other limits at their defaults."""
    if isinstance(limits, int):
        from sitegen.limits import Limits  # late: pydantic, only when needed
        return Limits(max_file_bytes=limits)
    return limits


def size_problem(rel: str, size: int, max_bytes: int) -> Problem | None:
    """The problem of a file over the size limit, found from its size before reading it."""
    if size <= max_bytes:
        return None
    return Problem(rel, None, "", f"a file of at most {max_bytes:,} bytes", f"{size:,} bytes")


def _streamed_source(fh: BinaryIO, rel: str, size: int) -> SourceFile:
    """A file's identity without holding its bytes (one that is too large to read)."""
    return SourceFile(rel, hashlib.file_digest(fh, "sha256").hexdigest(), size)


def _open_or_report(root: Path, path: Path, loaded: Loaded) -> BinaryIO | None:
    try:
        return open_input(root, path)
    except InputError as exc:
        loaded.problems.extend(exc.problems)
        loaded.incomplete.add(rel_path(root, path))
        return None


def read_bytes(root: Path, path: Path, loaded: Loaded, limits: "Limits | int") -> tuple[SourceFile | None, bytes | None]:
    """(identity, bytes) of an input; (None, None) when it is not one, its problem reported."""
    rel = rel_path(root, path)
    fh = _open_or_report(root, path, loaded)
    if fh is None:
        return None, None
    with fh:
        size = os.fstat(fh.fileno()).st_size
        too_large = size_problem(rel, size, as_limits(limits).max_file_bytes)
        if too_large is not None:  # refused before reading: the limit is there to protect memory
            src = _streamed_source(fh, rel, size)
            loaded.files.append(src)
            loaded.problems.append(too_large)
            loaded.incomplete.add(rel)
            return src, None
        data = fh.read()
    src = SourceFile(rel, sha256_bytes(data), len(data))
    loaded.files.append(src)
    return src, data


# UTF-32's marks first: UTF-32LE's begins with UTF-16LE's.
_BOMS = ((b"\xff\xfe\x00\x00", "UTF-32"), (b"\x00\x00\xfe\xff", "UTF-32"), (b"\xff\xfe", "UTF-16"), (b"\xfe\xff", "UTF-16"))


def encoding_problem(rel: str, head: bytes, nul: bool = False) -> Problem | None:
    """The problem of a file written as UTF-16 or UTF-32, told by its byte-order mark in HEAD
    (its first bytes) or, with NUL, by NUL bytes making a quarter of it or more (UTF-16 without
    a mark: every ASCII character comes with one; a stray NUL is its line's problem alone). It
    is one problem for the file: read as UTF-8 line by line, each of its lines would be one more."""
    for bom, name in _BOMS:
        if head.startswith(bom):
            return Problem(rel, None, "", "UTF-8 text", f"{name} text (byte-order mark {bom.hex(' ').upper()})")
    if nul and head and head.count(0) * 4 >= len(head):
        return Problem(rel, None, "", "UTF-8 text", "UTF-16 or UTF-32 text (NUL bytes in its first line)")
    return None


def decode_utf8(data: bytes, rel: str, problems: list[Problem]) -> str | None:
    if (wrong := encoding_problem(rel, data[:4])) is not None:
        problems.append(wrong)
        return None
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        problems.append(Problem(rel, line, "", "UTF-8 text", f"invalid byte 0x{data[exc.start]:02x} at offset {exc.start}"))
        return None
    return text.removeprefix("\ufeff")


def read_json(root: Path, path: Path, loaded: Loaded, limits: "Limits | int", screen: Callable[[str], bool] | None = None) -> tuple[SourceFile | None, JsonRecord | None]:
    limits = as_limits(limits)
    src, data = read_bytes(root, path, loaded, limits)
    if data is None:
        return src, None
    text = decode_utf8(data, src.rel, loaded.problems)
    if text is None:
        return src, None
    value, problems, screened = parse_json_text(text, src.rel, None, _Decoder(screen, limits.max_string_chars))
    loaded.problems.extend(problems)
    return src, (JsonRecord(src.rel, None, value, screened) if value is not None and not problems else None)


@dataclass(frozen=True)
class RawChunk:
    """Consecutive lines of a JSONL file, as bytes: cheap to hand to a worker process."""

    rel: str
    first_line: int
    lines: list[bytes]
    max_string_chars: int | None = None  # the limit travels with the chunk into a worker process
    first_offset: int = 0  # the byte offset of its first line in the file


def parse_chunk(chunk: RawChunk, screen: Callable[[str], bool] | None = None) -> tuple[list[JsonRecord], list[Problem]]:
    """Parse every line of a chunk. A bad line is reported and skipped so the rest are checked."""
    decoder = _Decoder(screen, chunk.max_string_chars)
    records: list[JsonRecord] = []
    problems: list[Problem] = []
    for i, raw in enumerate(chunk.lines, start=chunk.first_line):
        line = raw.rstrip(b"\n")
        try:
            text = line.decode("utf-8")
        except UnicodeDecodeError as exc:
            problems.append(Problem(chunk.rel, i, "", "UTF-8 text", f"invalid byte 0x{line[exc.start]:02x} at column {exc.start + 1}"))
            continue
        if i == 1:
            text = text.removeprefix("\ufeff")
        if not text.strip():
            problems.append(Problem(chunk.rel, i, "", "one JSON object per line", "an empty line"))
            continue
        value, found, screened = parse_json_text(text, chunk.rel, i, decoder)
        problems.extend(found)
        if value is not None and not found:
            records.append(JsonRecord(chunk.rel, i, value, screened))
    return records, problems


class JsonlReader:
    """Streams a JSONL file in chunks of lines, so memory stays bounded by the chunk, not the
    file. `source` (path, SHA-256, size) is complete once the chunks are exhausted."""

    def __init__(self, root: Path, path: Path, loaded: Loaded, limits: "Limits | int", screen: Callable[[str], bool] | None = None):
        self.root, self.path, self.loaded, self.limits, self.screen = root, path, loaded, as_limits(limits), screen
        self.rel = rel_path(root, path)
        self.source: SourceFile | None = None

    @property
    def size(self) -> int:
        """The file's size in bytes (map_chunks' choice), 0 when it is not an input."""
        target, _ = input_target(self.root, self.path)
        return os.stat(target).st_size if target is not None else 0

    def raw_chunks(self, size: int = 5000) -> Iterator[RawChunk]:
        fh = _open_or_report(self.root, self.path, self.loaded)
        if fh is None:
            return
        with fh:
            yield from self._chunks(fh, size)

    def _chunks(self, fh: BinaryIO, size: int) -> Iterator[RawChunk]:
        n_bytes = os.fstat(fh.fileno()).st_size
        too_large = size_problem(self.rel, n_bytes, self.limits.max_file_bytes)
        if too_large is not None:
            self._done(_streamed_source(fh, self.rel, n_bytes))
            self.loaded.problems.append(too_large)
            self.loaded.incomplete.add(self.rel)
            return
        max_records, max_chars = self.limits.max_records, self.limits.max_string_chars
        digest = hashlib.sha256()
        first, lines, offset, at = 1, [], 0, 0  # at: the offset of the chunk's first line
        for raw in fh:
            if offset == 0 and (wrong := encoding_problem(self.rel, raw, nul=True)) is not None:
                # Not UTF-8 at all: the file's one problem, not one per line; it is only hashed.
                self.loaded.problems.append(wrong)
                self.loaded.incomplete.add(self.rel)
                digest.update(raw)
                while block := fh.read(1 << 20):
                    digest.update(block)
                break
            if first + len(lines) > max_records:
                # Stop parsing here: one problem, not one per line of a runaway file. The
                # rest is only hashed, so the file's identity stays its whole content.
                self.loaded.problems.append(Problem(self.rel, max_records + 1, "", f"a file of at most {max_records:,} records (lines)",
                                                    "more (reading stopped at this line)"))
                self.loaded.incomplete.add(self.rel)
                digest.update(raw)
                while block := fh.read(1 << 20):
                    digest.update(block)
                break
            digest.update(raw)
            lines.append(raw)
            offset += len(raw)
            if len(lines) >= size:
                yield RawChunk(self.rel, first, lines, max_chars, at)
                first, lines, at = first + len(lines), [], offset
        if lines:
            yield RawChunk(self.rel, first, lines, max_chars, at)
        self._done(SourceFile(self.rel, digest.hexdigest(), n_bytes))

    def chunks(self, size: int = 5000) -> Iterator[list[JsonRecord]]:
        for raw in self.raw_chunks(size):
            records, problems = parse_chunk(raw, self.screen)
            self.loaded.problems.extend(problems)
            if problems:  # a line that did not parse is a record not there: no check may take it for a missing one
                self.loaded.incomplete.add(self.rel)
            yield records

    def _done(self, src: SourceFile) -> None:
        self.source = src
        self.loaded.files.append(src)


def map_chunks(fn: Callable[[RawChunk], Any], chunks: Iterator[RawChunk], n_bytes: int, parallel_bytes: int = 8_000_000) -> Iterator[Any]:
    """fn(chunk) for every chunk, yielded in file order. A file of `parallel_bytes` or more is
    worked on by a process pool, with at most two chunks per worker in flight so memory stays
    bounded; `fn` must be picklable (a module-level function, or a partial of one)."""
    workers = min(os.cpu_count() or 1, 4)
    if n_bytes < parallel_bytes or workers < 2:
        for chunk in chunks:
            yield fn(chunk)
        return
    with ProcessPoolExecutor(max_workers=workers) as pool:
        pending: deque = deque()
        for chunk in chunks:
            pending.append(pool.submit(fn, chunk))
            if len(pending) >= 2 * workers:
                yield pending.popleft().result()
        while pending:
            yield pending.popleft().result()


def read_jsonl(root: Path, path: Path, loaded: Loaded, limits: "Limits | int", screen: Callable[[str], bool] | None = None) -> tuple[SourceFile, list[JsonRecord]]:
    """Every line of a (small) JSONL file at once. Large artifacts use JsonlReader.chunks()."""
    reader = JsonlReader(root, path, loaded, limits, screen)
    records = [r for chunk in reader.chunks() for r in chunk]
    return reader.source, records


_FRONT_KEY = re.compile(r"^([A-Za-z_][A-Za-z0-9_-]*):\s*(.*)$")


def read_markdown(root: Path, path: Path, loaded: Loaded, limits: "Limits | int") -> MarkdownDoc | None:
    """Markdown with optional front matter between '---' lines: 'key: value' scalars only.

    A deliberately small subset of YAML: front matter here carries titles and dates, and a
    full YAML parser would bring its type guessing (NO -> false) into a tool about exactness.
    """
    src, data = read_bytes(root, path, loaded, limits)
    if data is None:
        return None
    text = decode_utf8(data, src.rel, loaded.problems)
    if text is None:
        return None
    text = text.replace("\r\n", "\n")
    meta: dict[str, str] = {}
    meta_lines: dict[str, int] = {}
    body_line = 1
    lines = text.split("\n")
    if lines and lines[0].strip() == "---":
        try:
            end = next(i for i in range(1, len(lines)) if lines[i].strip() == "---")
        except StopIteration:
            loaded.problems.append(Problem(src.rel, 1, "", "front matter closed by a '---' line", "no closing line"))
            return None
        for i in range(1, end):
            raw = lines[i]
            if not raw.strip() or raw.lstrip().startswith("#"):
                continue
            m = _FRONT_KEY.match(raw)
            if not m:
                loaded.problems.append(Problem(src.rel, i + 1, "", "front matter line 'key: value'", short_repr(raw)))
                continue
            key, value = m.group(1), m.group(2).strip()
            if len(value) >= 2 and value[0] == value[-1] and value[0] in "\"'":
                value = value[1:-1]
            if key in meta:
                loaded.problems.append(Problem(src.rel, i + 1, key, "each front matter key once", f"{key!r} repeated"))
            meta[key] = value
            meta_lines[key] = i + 1
        body = "\n".join(lines[end + 1 :])
        body_line = end + 2
    else:
        body = text
    return MarkdownDoc(src, meta, body, body_line, meta_lines)
