"""MkDocs hook (mkdocs.yml `hooks:`): the site is docs/ plus three pages kept where GitHub shows
them, the repository's README.md (the home page), benchmarks/README.md and graph_schema/README.md.

Every page is written for reading in the repository, with repository-relative links. Here each
link is resolved against the page's place in the repository and pointed at the page it becomes;
a link to a source file the site does not hold (``queries/car.cypher``) becomes its text. A link
to a page that exists nowhere is left alone, so ``mkdocs build --strict`` still reports it.
"""

from __future__ import annotations

import posixpath
import re
from pathlib import Path
from typing import Any

from mkdocs.structure.files import File, Files

ROOT = Path(__file__).resolve().parent
# repository path -> site path, for the pages kept outside docs/
OUTSIDE = {"README.md": "index.md", "benchmarks/README.md": "benchmarks-package.md",
           "graph_schema/README.md": "graph-model.md"}
LINK = re.compile(r"(!?)\[([^\]\n]*)\]\(([^)\s]+)\)")
SCHEME = re.compile(r"^[a-z][a-z0-9+.-]*:", re.I)


def on_files(files: Files, config: Any) -> Files:
    for repo_path, site_path in OUTSIDE.items():
        text = (ROOT / repo_path).read_text(encoding="utf-8")
        files.append(File.generated(config, site_path, content=text))
    return files


def _repo_path(site_path: str) -> str:
    for repo_path, site in OUTSIDE.items():
        if site == site_path:
            return repo_path
    return f"docs/{site_path}"


def _site_target(resolved: str, files: Files) -> str | None:
    """The site path a repository path becomes, or None when the site does not hold it."""
    if resolved in OUTSIDE:
        return OUTSIDE[resolved]
    if not resolved.startswith("docs/"):
        return None
    inside = resolved[len("docs/"):]
    if files.get_file_from_path(inside) is not None:
        return inside
    for index in ("index.md", "README.md"):  # a folder: its index page
        if files.get_file_from_path(posixpath.join(inside, index)) is not None:
            return posixpath.join(inside, index)
    return None


def on_page_markdown(markdown: str, page: Any, config: Any, files: Files) -> str:
    page_site = page.file.src_uri
    page_repo = _repo_path(page_site)

    def relink(match: re.Match[str]) -> str:
        bang, text, target = match.groups()
        if SCHEME.match(target) or target.startswith("#"):
            return match.group(0)
        path, _, anchor = target.partition("#")
        resolved = posixpath.normpath(posixpath.join(posixpath.dirname(page_repo), path))
        site = _site_target(resolved, files)
        if site is not None:
            new = posixpath.relpath(site, posixpath.dirname(page_site) or ".")
            return f"{bang}[{text}]({new}{'#' + anchor if anchor else ''})"
        if (ROOT / resolved).exists() and not bang:
            return text  # a source file: the site shows its name, the repository the file
        return match.group(0)

    return LINK.sub(relink, markdown)
