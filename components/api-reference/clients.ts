/**
 * The four official client libraries as /docs shows them (`/docs/clients/<slug>`). Each page is
 * the client's own README, made to stand alone for a hosted API's user (docs/decisions.md): the
 * sections about the repository (installing from it, its examples folder, developing the client,
 * the licence file) are left out, and the install the page shows instead names only the package
 * file an integrator is given.
 */
export type ClientGuide = {
  slug: "node" | "python" | "go" | "php";
  language: string;
  /** The package's name in its language's registry. */
  name: string;
  /** The package's folder, whose README.md the page renders. */
  folder: string;
  /** Markdown: how to install it without the repository (none is on a public registry yet). */
  install: string;
};

export const clientGuides: ClientGuide[] = [
  {
    slug: "node",
    language: "TypeScript / JavaScript",
    name: "@innkeep/node",
    folder: "typescript",
    install: "Not on the npm registry yet: install the package tarball.\n\n```sh\nnpm install ./innkeep-node-0.1.0.tgz\n```",
  },
  {
    slug: "python",
    language: "Python",
    name: "innkeep",
    folder: "python",
    install: "Not on PyPI yet: install the wheel (or the unpacked package folder).\n\n```sh\npip install ./innkeep-0.1.0-py3-none-any.whl\n```",
  },
  {
    slug: "go",
    language: "Go",
    name: "github.com/innkeep/innkeep-go",
    folder: "go",
    install:
      "Not on the module proxy yet: unpack the module's source beside your project and point the module path at it.\n\n```\n// go.mod\nrequire github.com/innkeep/innkeep-go v0.0.0\n\nreplace github.com/innkeep/innkeep-go => ../innkeep-go\n```",
  },
  {
    slug: "php",
    language: "PHP",
    name: "innkeep/innkeep-php",
    folder: "php",
    install:
      "Not on Packagist yet: unpack the package beside your project and require it as a Composer `path` source.\n\n```sh\ncomposer config repositories.innkeep '{\"type\": \"path\", \"url\": \"../innkeep-php\", \"options\": {\"symlink\": false}}'\ncomposer require innkeep/innkeep-php:@dev\n```",
  },
];

/** Sections of a client's README that are about the repository, not the API: left out of /docs. */
const repositorySections = /^(install|examples|development|types are generated|licen[cs]e)\b/i;

/**
 * A client's README as /docs shows it: without its title (the page has its own), without the
 * sections about the repository, and without the parenthesised paths into it (`(`clients/testdata/`
 * in this repository)`, `(`examples/…`)`); `install` (Markdown) takes the place of its install
 * section. Headings inside code blocks are code, not sections.
 */
export function clientGuideMarkdown(readme: string, install: string): string {
  const kept: string[] = [];
  let fenced = false;
  let skipping = false;
  for (const line of readme.split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    else if (!fenced && /^# /.test(line)) continue;
    else if (!fenced && /^## /.test(line)) skipping = repositorySections.test(line.slice(3).trim());
    if (!skipping) kept.push(line);
  }
  const guide = kept
    .join("\n")
    .replace(/ ?\([^()]*`(?:clients|examples)\/[^`]*`[^()]*\)/g, "")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
  // The install the page shows goes where the README's was: after the introduction.
  const firstSection = guide.search(/^## /m);
  return firstSection < 0 ? `${guide}\n\n## Install\n\n${install}` : `${guide.slice(0, firstSection)}## Install\n\n${install}\n\n${guide.slice(firstSection)}`;
}

/** The `## ` headings of a guide with the ids rehype-slug gives them (for a page's contents). */
export const headingsOf = (markdown: string, idPrefix = "") =>
  [...markdown.matchAll(/^## (.+)$/gm)].map(([, title]) => ({
    title: title.replace(/`/g, ""),
    href: `#${idPrefix}${title.toLowerCase().replace(/`/g, "").replace(/[^\p{L}\p{N}\s-]/gu, "").trim().replace(/\s/g, "-")}`,
  }));
