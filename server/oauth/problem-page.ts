const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A small HTML page for a refused OAuth browser request (the consent form's decision, an
 * authorization request too malformed to name an app): the consent page's look, no scripts.
 */
export function problemPage(status: number, title: string, message: string): Response {
  const html = `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>${escape(title)} · Innkeep</title>
<style>body{font-family:system-ui,sans-serif;background:#fafaf9;color:#1c1917;margin:0;display:flex;justify-content:center;padding:40px 16px}
main{max-width:28rem;width:100%}.brand{color:#115e59;font-size:1.5rem;font-weight:600;text-align:center;margin-bottom:24px}
.card{background:#fff;border:1px solid #e7e5e4;border-radius:8px;padding:24px}h1{font-size:1.125rem;margin:0 0 8px}p{font-size:.875rem;color:#57534e;margin:0}</style></head>
<body><main><p class="brand">Innkeep</p><div class="card"><h1>${escape(title)}</h1><p>${escape(message)}</p></div></main></body></html>`;
  return new Response(html, { status, headers: { "content-type": "text/html; charset=utf-8", "cache-control": "no-store" } });
}
