import ReactMarkdown, { type Components } from "react-markdown";
import rehypeSlug from "rehype-slug";
import remarkGfm from "remark-gfm";

/**
 * Markdown as the reference shows it (react-markdown with GitHub's tables, headings given ids):
 * code as code, tables and code blocks that scroll inside themselves on a narrow screen, and links
 * between the documents of this page turned into links within it (`links`: file name → the id of
 * its section, whose headings are `<section>-<slug>`). `idPrefix` keeps two documents' heading ids apart.
 */
export function Markdown({ source, idPrefix = "", links = {}, sectionLevel = 3 }: { source: string; idPrefix?: string; links?: Record<string, string>; sectionLevel?: 2 | 3 }) {
  // A document's `##` sections are h3 on the reference (under its h2s), h2 on a page of their own.
  const [H1, H2, H3] = sectionLevel === 2 ? (["h1", "h2", "h3"] as const) : (["h2", "h3", "h4"] as const);
  const components: Components = {
    h1: ({ children, id }) => <H1 id={idPrefix + id} className="mt-2 scroll-mt-20 text-xl font-semibold tracking-tight">{children}</H1>,
    h2: ({ children, id }) => <H2 id={idPrefix + id} className="mt-8 scroll-mt-20 text-lg font-semibold">{children}</H2>,
    h3: ({ children, id }) => <H3 id={idPrefix + id} className="mt-6 scroll-mt-20 font-semibold">{children}</H3>,
    p: ({ children }) => <p className="my-3 leading-relaxed text-stone-700">{children}</p>,
    ul: ({ children }) => <ul className="my-3 list-disc space-y-1.5 pl-5 text-stone-700">{children}</ul>,
    ol: ({ children }) => <ol className="my-3 list-decimal space-y-1.5 pl-5 text-stone-700">{children}</ol>,
    a: ({ href = "", children }) => {
      const target = resolveLink(href, links);
      return target ? (
        <a href={target} className="text-teal-800 underline decoration-teal-800/30 underline-offset-2 hover:decoration-teal-800">
          {children}
        </a>
      ) : (
        <>{children}</>
      );
    },
    code: ({ children, className }) =>
      className ? (
        <code className={className}>{children}</code>
      ) : (
        <code className="rounded bg-stone-100 px-1 py-0.5 font-mono text-[0.85em] break-words text-stone-900">{children}</code>
      ),
    pre: ({ children }) => (
      <pre tabIndex={0} className="my-3 overflow-x-auto rounded-lg bg-stone-900 p-4 font-mono text-[0.8rem] leading-relaxed text-stone-100 focus:outline-2 focus:outline-teal-700 [&_code]:bg-transparent [&_code]:p-0 [&_code]:text-inherit">
        {children}
      </pre>
    ),
    table: ({ children }) => (
      <div tabIndex={0} role="region" aria-label="Table" className="my-4 overflow-x-auto rounded-lg border border-stone-200 focus:outline-2 focus:outline-teal-700">
        <table className="w-full text-left text-sm">{children}</table>
      </div>
    ),
    th: ({ children }) => <th className="border-b border-stone-200 bg-stone-50 px-3 py-2 font-medium text-stone-700">{children}</th>,
    td: ({ children }) => <td className="border-b border-stone-100 px-3 py-2 align-top text-stone-700">{children}</td>,
  };
  return (
    <ReactMarkdown remarkPlugins={[remarkGfm]} rehypePlugins={[rehypeSlug]} components={components}>
      {source}
    </ReactMarkdown>
  );
}

/**
 * Where a link of a document goes on this page: web addresses and in-page anchors as they are, a
 * document of this page to its section (`links` maps file names to anchors); any other file is not
 * on the web, so the text stays without a link.
 */
function resolveLink(href: string, links: Record<string, string>): string | null {
  if (/^(https?:|mailto:|#|\/)/.test(href)) return href;
  const [file, anchor] = href.split("#");
  const base = file.split("/").pop() ?? "";
  if (links[base] !== undefined) return anchor ? `#${links[base]}-${anchor}` : `#${links[base]}`;
  return null;
}
